package soc_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/soc"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// workload drives a machine through every kind of operation with choices
// drawn from the run's RNG, recording into a timeline, and returns the
// machine and the recorded timeline.
func workload(t testing.TB, preset string, seed uint64) (*soc.Machine, *scenario.Timeline) {
	m, err := platform.New(preset, seed)
	if err != nil {
		t.Fatal(err)
	}
	rec := scenario.NewRecording(m, scenario.NewRecorder())
	if _, err := m.Buddy().Fragment(m.RNG(), 0.3); err != nil {
		t.Fatal(err)
	}
	buf, err := m.AllocChunks("buf", 1<<20, mem.Normal, 3)
	if err != nil {
		t.Fatal(err)
	}
	nc, _ := m.Alias(buf, "buf-nc", mem.NormalNC)
	dst, _ := m.Alloc("dst", 1<<20, mem.Normal)
	if err := m.Track(buf); err != nil {
		t.Fatal(err)
	}
	rec.Grid("buf", "buffer", buf, 4096)
	rec.Cache("l1d", "L1D", 0, 0, 8)
	dev, _ := m.AddDevice(soc.DeviceConfig{Name: "dma", Burst: 256, Bandwidth: 2e9})
	cdev, _ := m.AddDevice(soc.DeviceConfig{Name: "cdma", Coherent: true, Burst: 128, Bandwidth: 4e9})
	r := m.RNG()
	for step := 0; step < 300; step++ {
		off := r.Uint64n(buf.Size/64) * 64
		n := min(buf.Size-off, (1+r.Uint64n(64))*64)
		var err error
		switch r.Intn(9) {
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
			_, err = m.DeviceWrite(dev, buf.PA(off), min(n, 4096-off%4096))
		case 7:
			_, err = m.DeviceRead(cdev, buf.PA(off), min(n, 4096-off%4096))
		case 8:
			_, err = m.DeviceWrite(cdev, buf.PA(off), min(n, 4096-off%4096))
		}
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
	}
	return m, rec.Recorder().Finish(m.Now())
}

func timelineDigest(tl *scenario.Timeline) string {
	return fmt.Sprintf("events=%d keyframes=%d end=%d", len(tl.Events), len(tl.Keyframes), tl.End)
}

// The same preset, seed and calls give the same state hash, counters and
// timeline twice in a row, and the same hash as the golden file written
// by a native run (go test -update), so a GOOS=js GOARCH=wasm run under
// Node is checked against native.
func TestDeterminismGolden(t *testing.T) {
	var lines []string
	for _, p := range platform.Names() {
		a, ta := workload(t, p, 7)
		b, tb := workload(t, p, 7)
		if a.Hash() != b.Hash() || timelineDigest(ta) != timelineDigest(tb) {
			t.Fatalf("%s: two identical runs differ: %x/%x %s/%s", p, a.Hash(), b.Hash(), timelineDigest(ta), timelineDigest(tb))
		}
		c, _ := workload(t, p, 8)
		if c.Hash() == a.Hash() {
			t.Fatalf("%s: a different seed gave the same hash", p)
		}
		if a.Count(soc.DCOps) == 0 || a.Count(soc.BusReadNC) == 0 || a.Count(soc.DMAWriteBytes) == 0 {
			t.Fatalf("%s: workload did not exercise every path", p)
		}
		lines = append(lines, fmt.Sprintf("%s %016x %s stale=%d lost=%d", p, a.Hash(), timelineDigest(ta),
			a.Count(soc.StaleLinesRead), a.Count(soc.LostBytes)))
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "determinism.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update natively to create it)", err)
	}
	if string(want) != got {
		t.Fatalf("state hashes differ from %s:\n got:\n%s want:\n%s", path, got, want)
	}
	t.Logf("\n%s", got)
}
