package mem

import (
	"strings"
	"testing"

	"github.com/dmaviz/dmaviz/model/sim"
)

func TestBuddySplitMergeAndCounts(t *testing.T) {
	b, err := NewBuddy(8<<20, 10) // two order-10 blocks
	if err != nil {
		t.Fatal(err)
	}
	if b.FreeBlocks(10) != 2 || b.FreePages() != 2048 {
		t.Fatalf("fresh: %d order-10 blocks, %d pages", b.FreeBlocks(10), b.FreePages())
	}
	c, err := b.Alloc(0)
	if err != nil || c.PFN != 0 {
		t.Fatalf("Alloc(0) = %+v, %v; want pfn 0", c, err)
	}
	// Splitting one order-10 block leaves one free block of each order 0..9.
	for o := 0; o < 10; o++ {
		if b.FreeBlocks(o) != 1 {
			t.Fatalf("after split: %d free blocks of order %d, want 1", b.FreeBlocks(o), o)
		}
	}
	if err := b.Free(c); err != nil {
		t.Fatal(err)
	}
	if b.FreeBlocks(10) != 2 || b.FreePages() != 2048 {
		t.Fatalf("after merge: %d order-10 blocks", b.FreeBlocks(10))
	}
	if err := b.Free(c); err == nil {
		t.Fatal("double free accepted")
	}
	if _, err := b.Alloc(11); err == nil || !strings.Contains(err.Error(), "0..10") {
		t.Fatalf("Alloc(11) error %v should name range", err)
	}
}

func TestBuddyExhaustionIsAnError(t *testing.T) {
	b, _ := NewBuddy(64<<10, 4) // 16 pages
	for i := 0; i < 16; i++ {
		if _, err := b.Alloc(0); err != nil {
			t.Fatalf("alloc %d: %v", i, err)
		}
	}
	if _, err := b.Alloc(0); err == nil {
		t.Fatal("allocation from empty memory succeeded")
	}
	if _, err := b.AllocPreferLarge(17, 4); err == nil || !strings.Contains(err.Error(), "larger than memory") {
		t.Fatalf("oversized request: %v", err)
	}
}

// Fragmentation pins one frame in a fraction of max-order blocks, so a
// prefer-large allocation falls back to smaller chunks; with no
// fragmentation it gets max-order chunks.
func TestPreferLargeFallsBackUnderFragmentation(t *testing.T) {
	for _, c := range []struct {
		frac     float64
		wantBig  bool
		minChunk int
	}{{0, true, 1}, {1, false, 2}} {
		b, _ := NewBuddy(64<<20, 10) // 16 order-10 blocks
		pinned, err := b.Fragment(sim.NewRNG(3), c.frac)
		if err != nil {
			t.Fatal(err)
		}
		chunks, err := b.AllocPreferLarge(4096, 10) // 16 MiB
		if err != nil {
			t.Fatalf("frac %v: %v (pinned %d)", c.frac, err, pinned)
		}
		var pages uint64
		big := 0
		for _, ch := range chunks {
			pages += 1 << ch.Order
			if ch.Order == 10 {
				big++
			}
		}
		if pages != 4096 {
			t.Fatalf("frac %v: got %d pages", c.frac, pages)
		}
		if c.wantBig && (big != 4 || len(chunks) != 4) {
			t.Fatalf("unfragmented: %d chunks, %d of order 10", len(chunks), big)
		}
		if !c.wantBig && big != 0 {
			t.Fatalf("fully fragmented memory still gave %d order-10 chunks", big)
		}
	}
	b, _ := NewBuddy(1<<20, 8)
	if _, err := b.Fragment(sim.NewRNG(1), 1.5); err == nil || !strings.Contains(err.Error(), "fragmentation") {
		t.Fatalf("bad fraction: %v", err)
	}
}

func TestNewBuddyValidation(t *testing.T) {
	for _, c := range []struct {
		bytes uint64
		order int
		field string
	}{{0, 10, "mem.bytes"}, {5000, 10, "mem.bytes"}, {1 << 20, -1, "mem.max_order"}, {1 << 20, 21, "mem.max_order"}} {
		if _, err := NewBuddy(c.bytes, c.order); err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("NewBuddy(%d,%d) = %v, want error naming %s", c.bytes, c.order, err, c.field)
		}
	}
}

func TestVersionsStaleAndLost(t *testing.T) {
	v := NewVersions(6)
	if err := v.Track(0x10000, 256); err != nil {
		t.Fatal(err)
	}
	if err := v.Track(0x10040, 64); err == nil {
		t.Fatal("overlapping track accepted")
	}
	if v.Index(0x10000>>6-1) != -1 || v.Index(0x10100>>6) != -1 {
		t.Fatal("untracked line has an index")
	}
	i := v.Index(0x10040 >> 6)
	if i != 1 {
		t.Fatalf("index %d, want 1", i)
	}
	cached := v.WriteCached(i) // CPU writes its cached copy
	dev := v.WriteMem(i, 2)    // a device then writes DRAM
	if !(cached < dev) || v.Latest[i] != dev || v.LatestWriter[i] != 2 {
		t.Fatal("device write is not the newest")
	}
	if !v.WriteBack(i, cached) {
		t.Fatal("write-back of older CPU data over device data not reported lost")
	}
	if v.Mem[i] >= v.Latest[i] {
		t.Fatal("after lost write-back, DRAM should be older than latest")
	}
}

func TestSpaceAliasAndFaults(t *testing.T) {
	var s Space
	pages := []uint64{0x80000, 0x200000}
	if err := s.Map(Mapping{Name: "lin", VA: 0x1000, Pages: pages, Attr: Normal}); err != nil {
		t.Fatal(err)
	}
	if err := s.Map(Mapping{Name: "nc", VA: 0x100000, Pages: pages, Attr: NormalNC}); err != nil {
		t.Fatal(err)
	}
	if err := s.Map(Mapping{Name: "bad", VA: 0x2000, Pages: pages}); err == nil {
		t.Fatal("overlap accepted")
	}
	tr, err := s.Translate(0x2010, false)
	if err != nil || tr.PA != 0x200010 || tr.Attr != Normal || tr.Contig != PageSize-0x10 {
		t.Fatalf("linear: %+v %v", tr, err)
	}
	tr, err = s.Translate(0x101010, true)
	if err != nil || tr.PA != 0x200010 || tr.Attr != NormalNC {
		t.Fatalf("alias: %+v %v", tr, err)
	}
	if _, err := s.Translate(0x5000, false); err == nil || !strings.Contains(err.Error(), "not mapped") {
		t.Fatalf("unmapped: %v", err)
	}
}

func TestVersionsRun(t *testing.T) {
	v := NewVersions(6)
	// Two regions tracked out of line order, adjacent in line space.
	if err := v.Track(10<<6, 10<<6); err != nil { // lines 10..19, indexes 0..9
		t.Fatal(err)
	}
	if err := v.Track(0, 10<<6); err != nil { // lines 0..9, indexes 10..19
		t.Fatal(err)
	}
	for _, c := range []struct {
		line, n uint64
		idx     int
		ok      bool
	}{{10, 10, 0, true}, {12, 8, 2, true}, {12, 9, 2, false}, {5, 10, 15, false}, {0, 10, 10, true}, {20, 1, -1, false}, {3, 0, 13, false}} {
		idx, ok := v.Run(c.line, c.n)
		if idx != c.idx || ok != c.ok {
			t.Errorf("Run(%d,%d) = %d,%v; want %d,%v", c.line, c.n, idx, ok, c.idx, c.ok)
		}
	}
	if v.Index(25) != -1 || v.Index(19) != 9 || v.Index(0) != 10 {
		t.Fatal("Index across out-of-order regions")
	}
}
