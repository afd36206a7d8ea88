package platform

import "fmt"

// Validate checks the whole board: every unit's configuration and the
// constraints between units. The error names the parameter's path and
// what it allows.
func (b *Board) Validate() error {
	if err := b.Config.Validate(); err != nil {
		return err
	}
	if b.SMMU != nil {
		if err := b.SMMU.Validate(); err != nil {
			return fmt.Errorf("smmu.%w", err)
		}
	}
	return nil
}
