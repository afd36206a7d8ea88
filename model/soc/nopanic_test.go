package soc

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Random calls with hostile arguments (unmapped and wrapping addresses,
// zero and huge sizes, bad widths, unknown devices) return errors or
// succeed; none panics, and time never goes backwards.
func TestNoPanicOnHostileInput(t *testing.T) {
	edges := []uint64{0, 1, 63, 64, 4095, 4096, 1 << 20, 1<<63 - 1, 1 << 63, ^uint64(0), ^uint64(0) - 63}
	for _, seed := range []uint64{1, 2, 3} {
		r := sim.NewRNG(seed)
		m := newMachine(t, nil)
		b := alloc(t, m, "b", 64<<10, mem.Normal, true)
		nc := must[Buffer](t)(m.Alias(b, "nc", mem.NormalNC))
		dev := addDev(t, m, false)
		pick := func() uint64 {
			switch r.Intn(4) {
			case 0:
				return edges[r.Intn(len(edges))]
			case 1:
				return b.VA + r.Uint64n(b.Size+128)
			case 2:
				return nc.VA + r.Uint64n(nc.Size)
			}
			return r.Uint64n(1 << 17)
		}
		last := m.Now()
		for step := 0; step < 3000; step++ {
			a, n, w := pick(), pick()%(256<<10), 1<<r.Intn(8)
			func() {
				defer func() {
					{
						p := recover()
						require.Nil(t, p, "seed %d step %d: panic %v", seed, step, p)
					}
				}()
				switch r.Intn(9) {
				case 0:
					_, _ = m.Read(a, n, w)
				case 1:
					_, _ = m.Write(a, n, w)
				case 2:
					_, _ = m.Copy(pick(), a, n, w)
				case 3:
					_, _ = m.DC(DCOp(r.Intn(4)), a, n)
				case 4:
					m.DSB()
				case 5:
					_, _ = m.DeviceWrite(DeviceID(r.Intn(3)-1), a, n)
				case 6:
					_, _ = m.DeviceRead(dev, b.PA(r.Uint64n(b.Size)), n)
				case 7:
					_, _ = m.Alloc(fmt.Sprint(step), pick()%(128<<20), mem.Attr(r.Intn(4)))
				case 8:
					_ = m.Counters()
					_ = m.Hazards()
				}
			}()
			require.GreaterOrEqual(t, m.Now(), last, "seed %d step %d: time went back", seed, step)
			last = m.Now()
		}
	}
}
