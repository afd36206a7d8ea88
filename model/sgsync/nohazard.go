package sgsync

import (
	"github.com/dmaviz/dmaviz/model/scenario"
)

// noHazard says why a bug policy read nothing stale and lost nothing, from
// what became of the copies the first transfer made older than memory.
// Skipping the clean toward the device loses data only through lines the
// CPU holds dirty, so for that bug it also says what became of those.
func (r *run) noHazard(f scenario.Fates) string {
	w := scenario.FateWords{Device: "the device", Sync: "dma_unmap_sg"}
	if r.cfg.persistent {
		w.Sync = "dma_sync_sg_for_cpu"
	}
	if r.pol.skipDevice {
		w.Dirty = true
		switch r.cfg.cpu {
		case cpuReads:
			w.DirtyClause = "the CPU only read the buffer (cpu=reads); with cpu=writes it loses the device's data"
		case cpuNone:
			w.DirtyClause = "the CPU does not touch the buffer (cpu=none)"
		}
	}
	if f.Stale+f.Doomed == 0 {
		switch {
		case r.cfg.cpu == cpuNone:
			w.Clause = "the CPU does not touch the buffer (cpu=none)"
		case r.cfg.path == pathCoherent:
			w.Clause = "a coherent device's writes invalidate the CPU's copies by snooping (path=coherent)"
		}
	}
	return f.Why(w)
}
