package soc_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// observe says what watches a workload: nothing, a timeline recording, or
// an event log.
type observe int

const (
	observeNone observe = iota
	observeRecording
	observeLog
)

// workload drives a machine through every kind of operation with choices
// drawn from the run's RNG: the core and two DMA masters (one coherent)
// on shared DRAM, transfers overlapping the core's work. It returns the
// machine, the timeline (observeRecording) and the events (observeLog).
// A small workload keeps every access in the buffer's first page and at
// most two lines long (a short trace).
func workload(t testing.TB, preset string, seed uint64, steps int, small bool, obs observe) (*soc.Machine, *timeline.Timeline, []hwevent.Event) {
	m, err := platform.New(preset, seed)
	require.NoError(t, err)
	var rec *hwview.Recording
	var log hwevent.Log
	_, err = m.Buddy().Fragment(m.RNG(), 0.3)
	require.NoError(t, err)
	buf, err := m.AllocChunks("buf", 1<<20, mem.Normal, 3)
	require.NoError(t, err)
	nc, err := m.Alias(buf, "buf-nc", mem.NormalNC)
	require.NoError(t, err)
	dst, err := m.Alloc("dst", 1<<20, mem.Normal)
	require.NoError(t, err)
	require.NoError(t, m.Track(buf))
	switch obs {
	case observeRecording:
		rec = hwview.NewRecording(m, timeline.NewRecorder())
		rec.Grid("buf", "buffer", buf, 4096)
		rec.Cache("l1d", "L1D", 0, 0, 8)
	case observeLog:
		m.SetObserver(&log)
		m.WatchPhys(buf.Pages[0], 4096) // the first page: a short, readable trace
		m.WatchSets(0, int(buf.Pages[0]>>6)%m.Cache(0).Sets(), 64)
	}
	dev, err := m.AddDevice(soc.DeviceConfig{Name: "dma", Burst: 256, Bandwidth: 2e9})
	require.NoError(t, err)
	cdev, err := m.AddDevice(soc.DeviceConfig{Name: "cdma", Coherent: true, Burst: 128, Bandwidth: 4e9})
	require.NoError(t, err)
	r := m.RNG()
	var open []soc.DMAJob
	for step := 0; step < steps; step++ {
		off := r.Uint64n(buf.Size/64) * 64
		n := min(buf.Size-off, (1+r.Uint64n(64))*64)
		if small {
			off, n = off%4032, min(n, 128)
		}
		in := min(n, 4096-buf.PA(off)%4096) // one page: physically contiguous
		var err error
		switch r.Intn(10) {
		case 0:
			_, err = m.Read(buf.VA+off, n, 16)
		case 1:
			_, err = m.Write(buf.VA+off, n, 16)
		case 2:
			_, err = m.Copy(dst.VA+off, buf.VA+off, n, 16)
		case 3:
			_, err = m.Read(nc.VA+off, n, 8)
		case 4:
			_, err = m.DC(soc.DCOp(r.Intn(3)), buf.VA+off, n)
		case 5:
			m.DSB()
		case 6:
			var j soc.DMAJob
			if j, err = m.StartDMA(dev, buf.PA(off), in, true); err == nil {
				open = append(open, j)
			}
		case 7:
			var j soc.DMAJob
			if j, err = m.StartDMA(cdev, buf.PA(off), in, false); err == nil {
				open = append(open, j)
			}
		case 8:
			_, err = m.DeviceWrite(cdev, buf.PA(off), in)
		case 9:
			if len(open) > 0 {
				_, err = m.FinishDMA(open[0])
				open = open[1:]
			}
		}
		require.NoError(t, err, "step %d", step)
	}
	for _, j := range open {
		_, err := m.FinishDMA(j)
		require.NoError(t, err)
	}
	var tl *timeline.Timeline
	if rec != nil {
		tl = rec.Recorder().Finish(m.Now())
	}
	return m, tl, log.Events
}

// The same preset, seed and calls give the same state hash, counters and
// timeline twice in a row; another seed gives another state.
func TestDeterminism(t *testing.T) {
	for _, p := range platform.Names() {
		a, ta, _ := workload(t, p, 7, 300, false, observeRecording)
		b, tb, _ := workload(t, p, 7, 300, false, observeRecording)
		require.Equal(t, a.Hash(), b.Hash(), p)
		require.Equal(t, a.Counters(), b.Counters(), p)
		require.Equal(t, ta, tb, p)
		c, _, _ := workload(t, p, 8, 300, false, observeNone)
		assert.NotEqual(t, a.Hash(), c.Hash(), "%s: a different seed gave the same state", p)
		for _, k := range []soc.Counter{soc.DCOps, soc.BusReadNC, soc.DMAWriteBytes, soc.DMAReadBytes, soc.L1DCacheRefill} {
			assert.NotZero(t, a.Count(k), "%s: the workload did not exercise %s", p, k.Name())
		}
	}
}

// Observing a run changes nothing: with no observer, with a timeline
// recording and with an event log, the machine ends in the same state
// (hash), at the same time, with the same counters and hazards.
func TestObservingChangesNothing(t *testing.T) {
	for _, p := range platform.Names() {
		for _, small := range []bool{false, true} {
			base, _, _ := workload(t, p, 3, 300, small, observeNone)
			for _, obs := range []observe{observeRecording, observeLog} {
				m, tl, evs := workload(t, p, 3, 300, small, obs)
				require.True(t, tl != nil || len(evs) > 0, "%s observer %d saw nothing", p, obs)
				assert.Equal(t, base.Hash(), m.Hash(), "%s small=%v observer %d", p, small, obs)
				assert.Equal(t, base.Now(), m.Now(), "%s small=%v observer %d", p, small, obs)
				assert.Equal(t, base.Counters(), m.Counters(), "%s small=%v observer %d", p, small, obs)
				assert.Equal(t, base.Hazards(), m.Hazards(), "%s small=%v observer %d", p, small, obs)
			}
		}
	}
}

// traceSeed picks a 30-step run that shows a stale read, fills and
// evictions, DC ops and bursts of both masters.
var traceSeed = uint64(42)

// A short multi-agent run as a readable trace of hardware events with
// simulated timestamps, pinned in testdata/trace.golden (rewrite it with go
// test -update). The model tests run under GOOS=js as well, so the
// WebAssembly build is checked against the same file.
func TestTraceGolden(t *testing.T) {
	m, _, evs := workload(t, "juno-r2", traceSeed, 30, true, observeLog)
	var b strings.Builder
	fmt.Fprintf(&b, "# juno-r2, seed %d, 30 steps", traceSeed)
	fmt.Fprintf(&b, ": the core and two DMA masters (dev0 non-coherent, dev1 coherent)\n")
	fmt.Fprintf(&b, "# events on the buffer's first page and the L1D sets it maps to; time in ns on the acting agent's clock\n")
	for _, e := range evs {
		fmt.Fprintln(&b, e.String())
	}
	fmt.Fprintf(&b, "# end %v, state hash %016x\n", m.Now(), m.Hash())
	for _, c := range m.Counters() {
		if c.Value != 0 {
			fmt.Fprintf(&b, "# %s %v\n", c.Name, c.Value)
		}
	}
	got := b.String()
	path := filepath.Join("testdata", "trace.golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update natively to create it")
	require.Equal(t, string(want), got)
}
