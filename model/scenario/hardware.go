package scenario

import (
	"errors"
	"strings"
)

// Hardware reads and writes the board parameters a scenario on a board
// (Spec.OnBoard) takes as "hw.<path>" keys (HardwarePrefix): the paths of
// the preset's board, each value with its unit ("hw.l2.size=2MiB",
// "hw.dram.latency=95ns", "hw.clocks.cpu=1.2GHz", a count plain). The
// platform package implements it over its schema; the URL codec reaches
// it through the Registry, so the codec sees no hardware package.
type Hardware interface {
	// Paths lists the paths of the named preset's board, in the schema's
	// order (nil for an unknown preset).
	Paths(preset string) []string
	// Parse reads text as the value at path in the path's unit; the
	// error names the path and the forms it accepts (an unknown path:
	// a few known ones).
	Parse(path, text string) (float64, error)
	// Format is the canonical text of v at path, which Parse reads back
	// to v.
	Format(path string, v float64) string
	// Field returns the named preset's value at path in its unit, and
	// the unit ("B", "ns", "MHz", "cycles", "" for a count); ok is false
	// when the board has no such parameter.
	Field(preset, path string) (v float64, unit string, ok bool)
	// Check builds the named preset's board with the overrides hw (path
	// -> value) and validates it; it returns the board's values at those
	// paths as it holds them (a time to the picosecond, a clock to the
	// hertz), or an error naming the path and the allowed range.
	Check(preset string, hw map[string]float64) (map[string]float64, error)
}

// HardwareError names the key of a board's error: "l2.ways: ..." becomes
// "hw.l2.ways: ..." (an error already naming its key is kept).
func HardwareError(err error) error {
	if err == nil || strings.HasPrefix(err.Error(), HardwarePrefix) {
		return err
	}
	return errors.New(HardwarePrefix + err.Error())
}
