package soc_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// agentRun is what a multi-agent workload left behind.
type agentRun struct {
	Hash     uint64
	Now      sim.Time
	Counters []soc.CounterValue
	Ends     []sim.Time // completion time of every DMA job, in finish order
	Hazards  int
	Reorders uint64
}

// multiAgent drives three DMA masters (two non-coherent, one coherent)
// and the core on one DRAM: transfers are started without waiting, the
// core reads, writes, copies and maintains buffers the devices also use,
// and transfers are finished in random order. Every choice comes from
// the seed.
func multiAgent(t *testing.T, preset string, seed uint64, batched bool) agentRun {
	m, err := platform.New(preset, seed)
	require.NoError(t, err)
	m.SetBatching(batched)
	buf, err := m.Alloc("shared", 512<<10, mem.Normal)
	require.NoError(t, err)
	require.NoError(t, m.Track(buf))
	nc, err := m.Alias(buf, "shared-nc", mem.NormalNC)
	require.NoError(t, err)
	dst, err := m.Alloc("dst", 512<<10, mem.Normal)
	require.NoError(t, err)
	var devs []soc.DeviceID
	for i, c := range []soc.DeviceConfig{
		{Name: "dma0", Burst: 256, Bandwidth: 4e9},
		{Name: "dma1", Burst: 64, Bandwidth: 1e9},
		{Name: "cdma", Coherent: true, Burst: 128, Bandwidth: 8e9, SnoopLatency: 10 * sim.Nanosecond},
	} {
		d, err := m.AddDevice(c)
		require.NoError(t, err, "device %d", i)
		devs = append(devs, d)
	}
	r := sim.NewRNG(seed ^ 0xa9e47)
	var out agentRun
	var open []soc.DMAJob
	finish := func(k int) {
		end, err := m.FinishDMA(open[k])
		require.NoError(t, err)
		out.Ends = append(out.Ends, end)
		open = append(open[:k], open[k+1:]...)
	}
	for step := 0; step < 400; step++ {
		off := r.Uint64n(buf.Size/64) * 64
		n := min(buf.Size-off, (1+r.Uint64n(128))*64)
		var err error
		switch r.Intn(10) {
		case 0, 1, 2:
			var j soc.DMAJob
			j, err = m.StartDMA(devs[r.Intn(len(devs))], buf.PA(off), min(n, 4096-buf.PA(off)%4096), r.Intn(2) == 0)
			if err == nil {
				open = append(open, j)
			}
		case 3:
			_, err = m.Read(buf.VA+off, n, 16)
		case 4:
			_, err = m.Copy(dst.VA+off, buf.VA+off, n, 16)
		case 5:
			_, err = m.Write(buf.VA+off, n, 16)
		case 6:
			_, err = m.DC(soc.DCOp(r.Intn(3)), buf.VA+off, n)
			m.DSB()
		case 7:
			_, err = m.Read(nc.VA+off, min(n, 512), 8)
		case 8:
			if len(open) > 0 {
				finish(r.Intn(len(open)))
			}
		case 9:
			m.WaitUntil(m.Now() + sim.Time(r.Uint64n(2000))*sim.Nanosecond)
		}
		require.NoError(t, err, "step %d", step)
	}
	for len(open) > 0 {
		finish(0)
	}
	out.Hash, out.Now, out.Counters = m.Hash(), m.Now(), m.Counters()
	out.Hazards, out.Reorders = len(m.Hazards()), m.DRAMAskReorders()
	return out
}

// The batched fast path (runs of whole lines, catching up only when the
// next device step is due) and one transaction at a time (catching up
// before every line) give the same state hash, counters and times on
// random workloads of three masters and the core sharing DRAM; and no
// agent ever asks DRAM earlier than one already did.
func TestBatchedEqualsOneAtATime(t *testing.T) {
	for _, preset := range []string{"juno-r2", "neoverse-n1", "dimensity-9500"} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("%s/%d", preset, seed), func(t *testing.T) {
				b := multiAgent(t, preset, seed, true)
				one := multiAgent(t, preset, seed, false)
				require.Equal(t, one, b)
				assert.Zero(t, b.Reorders, "DRAM asked out of time order")
				assert.NotEmpty(t, b.Ends)
				var dma uint64
				for _, c := range b.Counters {
					if c.Name == "dma_write_bytes" || c.Name == "dma_read_bytes" {
						dma += uint64(c.Value)
					}
				}
				assert.NotZero(t, dma)
			})
		}
	}
}

// A device that runs ahead no longer books DRAM in the future: while a
// long transfer is in flight, a core miss queues behind only the bursts
// already asked for, so it waits about one burst, not the whole
// transfer.
func TestCoreMissDoesNotQueueBehindTheWholeTransfer(t *testing.T) {
	m, err := platform.New("juno-r2", 1)
	require.NoError(t, err)
	buf, err := m.Alloc("buf", 4<<20, mem.Normal)
	require.NoError(t, err)
	line, err := m.Alloc("line", 4096, mem.Normal)
	require.NoError(t, err)
	d, err := m.AddDevice(soc.DeviceConfig{Name: "dma", Burst: 256, Bandwidth: 1e9})
	require.NoError(t, err)
	cold, err := m.Read(line.VA, 64, 8)
	require.NoError(t, err)
	_, err = m.DC(soc.CIVAC, line.VA, 64)
	require.NoError(t, err)
	m.DSB()

	j, err := m.StartDMA(d, buf.PA(0), buf.Size, true) // about 4.2 ms at 1 GB/s
	require.NoError(t, err)
	m.WaitUntil(m.Now() + 100*sim.Microsecond)
	miss, err := m.Read(line.VA, 64, 8)
	require.NoError(t, err)
	after := m.Now()
	end, err := m.FinishDMA(j)
	require.NoError(t, err)
	assert.Greater(t, end-after, 4*sim.Millisecond, "the transfer was still running")
	assert.Equal(t, end, m.Now(), "FinishDMA waits for the completion")
	assert.Less(t, miss, cold+sim.Microsecond, "the miss waited for at most a burst or so")
	assert.Zero(t, m.DRAMAskReorders())
}
