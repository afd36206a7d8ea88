package platform

import (
	"math"
	"strings"
	"testing"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Published figures (MODEL.md).
const (
	etrCoherentUS  = 8148.32 // Juno r2, 4 MiB, tmc_update_etr_buffer, dma_alloc_coherent buffer
	etrCacheableUS = 2463.98 // same, cacheable buffer + dma_sync_single_for_cpu
	sgMapReduction = 64.61   // Dimensity 9500, dma_map_sg, %
	sgUnmapReduct  = 66.60   // Dimensity 9500, dma_unmap_sg, %
)

// etrCopy returns the time to copy 4 MiB of trace out of the ETR buffer
// into a cacheable AUX buffer: through the Normal-NC alias (coherent
// policy), or DC IVAC over the buffer + DSB + a cached copy.
func etrCopy(t *testing.T, coherent bool) sim.Time {
	m, err := New("juno-r2", 1)
	if err != nil {
		t.Fatal(err)
	}
	const size = 4 << 20
	buf, err := m.Alloc("etr-buf", size, mem.Normal)
	if err != nil {
		t.Fatal(err)
	}
	aux, _ := m.Alloc("aux", size, mem.Normal)
	if !buf.Contiguous() {
		t.Fatal("a 4 MiB DMA buffer must be physically contiguous")
	}
	t0 := m.Now()
	if coherent {
		nc, _ := m.Alias(buf, "etr-buf nc", mem.NormalNC)
		if _, err := m.Copy(aux.VA, nc.VA, size, 16); err != nil {
			t.Fatal(err)
		}
	} else {
		if _, err := m.DC(soc.IVAC, buf.VA, size); err != nil {
			t.Fatal(err)
		}
		m.DSB()
		if _, err := m.Copy(aux.VA, buf.VA, size, 16); err != nil {
			t.Fatal(err)
		}
	}
	return m.Now() - t0
}

func within(got, want, rel float64) bool { return math.Abs(got-want) <= rel*want }

func TestCalibrationJunoR2ETR(t *testing.T) {
	nc := etrCopy(t, true).Microseconds()
	cached := etrCopy(t, false).Microseconds()
	t.Logf("juno-r2 4 MiB: coherent (NC) %.2f us (published %.2f), cacheable+sync %.2f us (published %.2f), ratio %.3f (published %.3f)",
		nc, etrCoherentUS, cached, etrCacheableUS, nc/cached, etrCoherentUS/etrCacheableUS)
	if !within(nc, etrCoherentUS, 0.10) {
		t.Errorf("coherent copy %.2f us, want within 10%% of %.2f", nc, etrCoherentUS)
	}
	if !within(cached, etrCacheableUS, 0.10) {
		t.Errorf("cacheable + sync %.2f us, want within 10%% of %.2f", cached, etrCacheableUS)
	}
	if r := nc / cached; !within(r, 3.31, 0.10) {
		t.Errorf("ratio %.3f, want within 10%% of 3.31", r)
	}
}

// sgReduction runs 2560 entries x 64 lines of op, first with a DSB after
// each entry (before batching), then with one DSB at the end, and returns
// the reduction in percent.
func sgReduction(t *testing.T, op soc.DCOp) float64 {
	const entries, entry = 2560, 4096
	var took [2]sim.Time
	for i, batched := range []bool{false, true} {
		m, err := New("dimensity-9500", 1)
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.AllocChunks("sg", entries*entry, mem.Normal, 0) // 4 KB entries
		if err != nil {
			t.Fatal(err)
		}
		t0 := m.Now()
		for e := uint64(0); e < entries; e++ {
			if _, err := m.DC(op, b.VA+e*entry, entry); err != nil {
				t.Fatal(err)
			}
			if !batched {
				m.DSB()
			}
		}
		if batched {
			m.DSB()
		}
		took[i] = m.Now() - t0
		if m.Count(soc.DCOps) != entries*64 {
			t.Fatalf("%d DC ops, want %d", m.Count(soc.DCOps), entries*64)
		}
	}
	t.Logf("dimensity-9500 %v: per-entry DSB %.2f us, batched %.2f us", op, took[0].Microseconds(), took[1].Microseconds())
	return 100 * (1 - float64(took[1])/float64(took[0]))
}

func TestCalibrationDimensity9500SG(t *testing.T) {
	mapR := sgReduction(t, soc.CVAC)   // dma_map_sg: DC CVAC toward the device
	unmapR := sgReduction(t, soc.IVAC) // dma_unmap_sg FROM_DEVICE: DC IVAC
	t.Logf("dma_map_sg reduction %.2f %% (published %.2f), dma_unmap_sg %.2f %% (published %.2f)", mapR, sgMapReduction, unmapR, sgUnmapReduct)
	if math.Abs(mapR-sgMapReduction) > 3 {
		t.Errorf("map reduction %.2f %%, want within 3 points of %.2f", mapR, sgMapReduction)
	}
	if math.Abs(unmapR-sgUnmapReduct) > 3 {
		t.Errorf("unmap reduction %.2f %%, want within 3 points of %.2f", unmapR, sgUnmapReduct)
	}
}

func TestPresetsValidateAndLookup(t *testing.T) {
	names := Names()
	if len(names) < 3 {
		t.Fatalf("presets %v", names)
	}
	for _, n := range names {
		cfg, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Name != n {
			t.Errorf("preset %s builds config named %s", n, cfg.Name)
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("preset %s: %v", n, err)
		}
		// Lookup returns a fresh copy: changing it does not change the preset.
		cfg.L1D.Ways = 0
		again, _ := Lookup(n)
		if again.L1D.Ways == 0 {
			t.Errorf("preset %s shared state between lookups", n)
		}
	}
	_, err := Lookup("pentium")
	if err == nil || !strings.Contains(err.Error(), "preset") || !strings.Contains(err.Error(), "juno-r2") {
		t.Fatalf("unknown preset: %v", err)
	}
	if _, err := New("pentium", 1); err == nil {
		t.Fatal("New with an unknown preset succeeded")
	}
}
