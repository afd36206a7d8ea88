package sim

// RNG is the one random number generator of a run: SplitMix64 (Steele,
// Lea, Flood 2014), seeded explicitly. Every random choice in the model
// (random replacement, fragmentation, workloads) draws from the run's RNG,
// so a run is a pure function of its inputs and seed. The zero value is a
// valid generator with seed 0. Not safe for concurrent use (the model is
// single-threaded).
type RNG struct {
	state uint64
}

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) *RNG { return &RNG{state: seed} }

// Uint64 returns the next 64 random bits.
func (r *RNG) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a uniform integer in [0, n); 0 when n <= 0.
func (r *RNG) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.Uint64n(uint64(n)))
}

// Uint64n returns a uniform integer in [0, n); 0 when n == 0. It uses
// Lemire's multiply-shift with rejection, so there is no modulo bias.
func (r *RNG) Uint64n(n uint64) uint64 {
	if n == 0 {
		return 0
	}
	for {
		x := r.Uint64()
		hi, lo := mul64(x, n)
		if lo >= n || lo >= (-n)%n {
			return hi
		}
	}
}

// Float64 returns a uniform float in [0, 1).
func (r *RNG) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Split returns a new generator derived from this one, for a sub-component
// that needs its own stream (e.g. one per cache) without disturbing the
// parent's sequence more than one draw.
func (r *RNG) Split() *RNG { return &RNG{state: r.Uint64()} }

func mul64(a, b uint64) (hi, lo uint64) {
	const mask32 = 1<<32 - 1
	a0, a1 := a&mask32, a>>32
	b0, b1 := b&mask32, b>>32
	w0 := a0 * b0
	t := a1*b0 + w0>>32
	w1 := t&mask32 + a0*b1
	hi = a1*b1 + t>>32 + w1>>32
	lo = a * b
	return
}
