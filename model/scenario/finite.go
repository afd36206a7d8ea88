package scenario

import "math"

// Finite keeps JSON valid: NaN and infinities become 0.
func Finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
