package soc_test

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// A CPU caches a buffer, a non-coherent DMA master overwrites it, the CPU
// reads it back without and then with dma_sync_single_for_cpu (DC IVAC +
// DSB). Events are dispatched from a sim.Queue in (time, sequence) order;
// the printed times are simulated time on the juno-r2 preset.
func Example() {
	m, err := platform.New("juno-r2", 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	buf, _ := m.Alloc("dma-buf", 4096, mem.Normal)
	_ = m.Track(buf)
	dev, _ := m.AddDevice(soc.DeviceConfig{Name: "dma", Burst: 256, Bandwidth: 1e9})

	type step int
	const (
		cpuRead step = iota
		dmaWrite
		cpuReadAgain
		sync
		cpuReadSynced
	)
	var q sim.Queue[step]
	q.Push(0, cpuRead)
	q.Push(10*sim.Microsecond, dmaWrite)
	for q.Len() > 0 {
		at, s, _ := q.Pop()
		m.WaitUntil(at)
		switch s {
		case cpuRead:
			d, _ := m.Read(buf.VA, buf.Size, 16)
			fmt.Printf("%-8v cpu reads 4KiB in %v (lines now cached; %d table walk)\n", at, d, m.Count(soc.DTLBWalk))
		case dmaWrite:
			done, _ := m.DeviceWrite(dev, buf.PA(0), buf.Size)
			fmt.Printf("%-8v device writes 4KiB, done at %v\n", at, done)
			q.Push(done, cpuReadAgain)
		case cpuReadAgain:
			m.Read(buf.VA, buf.Size, 16)
			fmt.Printf("%-8v cpu reads again: %d stale lines\n", at, m.Count(soc.StaleLinesRead))
			q.Push(m.Now(), sync)
		case sync:
			d, _ := m.DC(soc.IVAC, buf.VA, buf.Size)
			w := m.DSB()
			fmt.Printf("%-8v dc ivac x64 issued in %v, dsb waited %v\n", at, d, w)
			q.Push(m.Now(), cpuReadSynced)
		case cpuReadSynced:
			before := m.Count(soc.StaleLinesRead)
			d, _ := m.Read(buf.VA, buf.Size, 16)
			fmt.Printf("%-8v cpu reads in %v: %d new stale lines\n", at, d, m.Count(soc.StaleLinesRead)-before)
		}
	}
	// Output:
	// 0ps      cpu reads 4KiB in 1.889us (lines now cached; 1 table walk)
	// 10us     device writes 4KiB, done at 14.1us
	// 14.1us   cpu reads again: 64 stale lines
	// 14.37us  dc ivac x64 issued in 1.267us, dsb waited 111ns
	// 15.74us  cpu reads in 1.639us: 0 new stale lines
}
