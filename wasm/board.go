//go:build js && wasm

package main

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/site/app"
)

// hardware is what the panel's Board section reads of the boards.
var hardware = app.Hardware{Params: platform.Parameters, Check: checkBoard}

// checkBoard refuses a board the machine cannot be built from, as a run
// would, before the run: the preset with the overrides hw, each within
// its field's range, then the machine's and the SMMU's checks. The error
// names the path and what it allows.
func checkBoard(preset string, hw map[string]float64) error {
	b, err := platform.BoardWith(preset, hw)
	if err != nil {
		return err
	}
	if err := b.Config.Validate(); err != nil {
		return err
	}
	if b.SMMU != nil {
		if err := b.SMMU.Validate(); err != nil {
			return fmt.Errorf("smmu.%w", err) // the board's path of the field
		}
	}
	return nil
}
