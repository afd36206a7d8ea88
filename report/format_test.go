package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Metric values print without an exponent where a reader expects a count:
// trbe-aux's averaged l2d_tlb_refill is 161884.9, not 1.6188e+05.
func TestFormatNumber(t *testing.T) {
	for v, want := range map[float64]string{
		161884.9: "161884.9", 161468.22: "161468.2", -250000.04: "-250000", 1074911.349: "1074911.3",
		513.1: "513.1", 50.0625: "50.062", 0.00737: "0.00737", 262144: "262144", 12345.67: "12346",
	} {
		assert.Equal(t, want, FormatNumber(v), "%v", v)
	}
}

// Units print with their symbols: µs, not us; the rest as written.
func TestUnitSymbol(t *testing.T) {
	assert.Equal(t, "µs", UnitSymbol("us"))
	assert.Equal(t, "MB/s", UnitSymbol("MB/s"))
}
