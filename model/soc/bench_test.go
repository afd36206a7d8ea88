package soc_test

import (
	"testing"
	"time"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Each benchmark reports simulated line accesses per second (lines/s) and
// how many times slower the model is than a plain Go loop touching the
// same bytes in the same run (x_plain): the cost of modelling.

func report(b *testing.B, linesPerOp int, plain func()) {
	simNs := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(float64(linesPerOp)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
	b.StopTimer()
	plain() // warm up
	n := max(1, b.N)
	t0 := time.Now()
	for i := 0; i < n; i++ {
		plain()
	}
	plainNs := float64(time.Since(t0).Nanoseconds()) / float64(n)
	b.ReportMetric(simNs/plainNs, "x_plain")
}

var sinkU64 uint64

// A 4 MiB memcpy (16-byte loads/stores) through L1/L2/DRAM on juno-r2,
// source tracked for stale-data checks as the ETR scenario does.
func BenchmarkCopy4MiB(b *testing.B) {
	m, err := platform.New("juno-r2", 1)
	if err != nil {
		b.Fatal(err)
	}
	const size = 4 << 20
	src, _ := m.Alloc("src", size, mem.Normal)
	dst, _ := m.Alloc("dst", size, mem.Normal)
	if err := m.Track(src); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.Copy(dst.VA, src.VA, size, 16); err != nil {
			b.Fatal(err)
		}
	}
	s, d := make([]uint64, size/8), make([]uint64, size/8)
	report(b, 2*size/64, func() {
		for i := range d {
			d[i] = s[i]
		}
	})
}

// A coherent DMA master streaming 1 GiB into memory (each line snooped in
// L1 and L2); the plain loop writes 1 GiB as 16 passes over 64 MiB.
func BenchmarkDeviceWrite1GiB(b *testing.B) {
	m, err := platform.New("juno-r2", 1)
	if err != nil {
		b.Fatal(err)
	}
	const size = 1 << 30
	buf, err := m.Alloc("stream", size, mem.Normal)
	if err != nil {
		b.Fatal(err)
	}
	dev, _ := m.AddDevice(soc.DeviceConfig{Name: "dma", Coherent: true, Burst: 256, Bandwidth: 8e9})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, pa := range chunkStarts(buf) {
			if _, err := m.DeviceWrite(dev, pa, 4<<20); err != nil {
				b.Fatal(err)
			}
		}
	}
	d := make([]uint64, 64<<20/8)
	report(b, size/64, func() {
		for pass := 0; pass < 16; pass++ {
			for i := range d {
				d[i] = uint64(i + pass)
			}
		}
	})
}

// chunkStarts returns the physical start of each 4 MiB chunk of b.
func chunkStarts(b soc.Buffer) []uint64 {
	var out []uint64
	for off := uint64(0); off < b.Size; off += 4 << 20 {
		out = append(out, b.PA(off))
	}
	return out
}

// Random 8-byte loads over a 64 MiB cacheable buffer (mostly DRAM misses).
func BenchmarkRandomAccess(b *testing.B) {
	m, err := platform.New("juno-r2", 1)
	if err != nil {
		b.Fatal(err)
	}
	const size, per = 64 << 20, 1 << 16
	buf, _ := m.Alloc("rand", size, mem.Normal)
	rng := sim.NewRNG(9)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := 0; k < per; k++ {
			if _, err := m.Read(buf.VA+rng.Uint64n(size/64)*64, 8, 8); err != nil {
				b.Fatal(err)
			}
		}
	}
	d := make([]uint64, size/8)
	prng := sim.NewRNG(9)
	report(b, per, func() {
		var s uint64
		for k := 0; k < per; k++ {
			s += d[prng.Uint64n(size/64)*8]
		}
		sinkU64 += s
	})
}

// dma_map_sg of 2560 4 KiB entries (64 DC CVAC each, DSB per entry) on
// dimensity-9500: simulated DC ops per second; the plain loop touches one
// word per line of the same 10 MB.
func BenchmarkSGMaintenance(b *testing.B) {
	m, err := platform.New("dimensity-9500", 1)
	if err != nil {
		b.Fatal(err)
	}
	const entries, entry = 2560, 4096
	sg, err := m.AllocChunks("sg", entries*entry, mem.Normal, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for e := uint64(0); e < entries; e++ {
			if _, err := m.DC(soc.CVAC, sg.VA+e*entry, entry); err != nil {
				b.Fatal(err)
			}
			m.DSB()
		}
	}
	d := make([]uint64, entries*entry/8)
	report(b, entries*entry/64, func() {
		for i := 0; i < len(d); i += 8 {
			d[i]++
		}
	})
}
