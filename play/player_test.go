package play

import (
	"math/rand"
	"reflect"
	"testing"
	"time"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

func demoPair(t testing.TB, size string) (*scenario.Result, *scenario.Result) {
	t.Helper()
	s := demo.New()
	p, _ := s.Spec().Defaults()
	if err := s.Spec().Set(p, "buffer", size); err != nil {
		t.Fatal(err)
	}
	a, err := s.Run(p, demo.PolicyNoncacheable)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Run(p, demo.PolicyCacheableSync)
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

// reference computes a side's state at the cursor from scratch.
func reference(p *Player, side int) scenario.State {
	var st scenario.State
	tl := p.Result(side).Timeline
	tl.StateAt(tl.EventsUntil(p.SideTime(side)), &st)
	return st
}

func snapshot(p *Player) [2]scenario.State {
	a, b := p.States()
	return [2]scenario.State{a.Clone(), b.Clone()}
}

func TestStepForwardThenBack(t *testing.T) {
	for _, align := range []Align{AlignTime, AlignProgress} {
		p := New(demoPair(t, "4KiB"))
		p.SetAlign(align)
		var trail [][2]scenario.State
		var cursors []sim.Time
		for steps := 0; ; steps++ {
			trail = append(trail, snapshot(p))
			cursors = append(cursors, p.Cursor())
			if !p.StepEvent(1) {
				break
			}
			if steps > 10000 {
				t.Fatal("stepping forward never ends")
			}
		}
		if p.Cursor() != p.Length() {
			t.Fatalf("%v: stepping forward stopped at %v of %v", align, p.Cursor(), p.Length())
		}
		if len(trail) < 100 {
			t.Fatalf("%v: only %d steps over a 64-line run", align, len(trail))
		}
		for i := len(trail) - 1; i >= 0; i-- {
			if got := snapshot(p); !reflect.DeepEqual(got, trail[i]) {
				t.Fatalf("%v: stepping back to step %d (cursor %v, want %v): states differ", align, i, p.Cursor(), cursors[i])
			}
			for side := A; side <= B; side++ {
				if ref := reference(p, side); !reflect.DeepEqual(*p.State(side), ref) {
					t.Fatalf("%v: step %d side %d differs from a fresh StateAt", align, i, side)
				}
			}
			moved := p.StepEvent(-1)
			if moved != (i > 0) {
				t.Fatalf("%v: StepEvent(-1) at step %d moved=%v", align, i, moved)
			}
		}
	}
}

func TestSeekEqualsReplay(t *testing.T) {
	a, b := demoPair(t, "64KiB")
	for _, align := range []Align{AlignTime, AlignProgress} {
		played := New(a, b)
		played.SetAlign(align)
		played.SetSpeed(4)
		played.Play()
		sought := New(a, b)
		sought.SetAlign(align)
		rng := rand.New(rand.NewSource(1))
		for played.Playing() {
			played.Tick(time.Duration(rng.Intn(40)+1) * time.Millisecond)
			played.States() // incremental forward replay
			sought.Seek(played.Cursor())
			for side := A; side <= B; side++ {
				if !reflect.DeepEqual(*played.State(side), *sought.State(side)) {
					t.Fatalf("%v: at %v side %d: played and sought states differ", align, played.Cursor(), side)
				}
			}
			// Random jumps on the sought player must not disturb it.
			sought.Seek(sim.Time(rng.Int63n(int64(sought.Length()) + 1)))
			sought.States()
		}
		if played.Cursor() != played.Length() {
			t.Fatalf("playback stopped at %v of %v", played.Cursor(), played.Length())
		}
	}
}

func TestAlignment(t *testing.T) {
	a, b := demoPair(t, "16KiB")
	p := New(a, b)
	if a.End <= b.End {
		t.Fatalf("expected the Normal-NC run to be longer: %v vs %v", a.End, b.End)
	}
	p.Seek(b.End)
	if p.SideTime(B) != b.End || p.SideTime(A) != b.End {
		t.Fatalf("time align: side times %v %v, want %v", p.SideTime(A), p.SideTime(B), b.End)
	}
	p.SetAlign(AlignProgress)
	p.Seek(p.Length() / 2)
	if got, want := p.SideTime(B), b.End/2; got < want-1 || got > want+1 {
		t.Fatalf("progress align: B at %v, want about %v", got, want)
	}
	p.End()
	if p.SideTime(A) != a.End || p.SideTime(B) != b.End {
		t.Fatal("progress align: both sides must end together")
	}
}

func TestNarrationCaptions(t *testing.T) {
	p := New(demoPair(t, "4KiB"))
	if s, i, ok := p.Caption(A); !ok || i != 0 || s.Title == "" {
		t.Fatalf("caption at start = %q %d %v", s.Title, i, ok)
	}
	var titles []string
	for {
		s, _, _ := p.Caption(B)
		titles = append(titles, s.Title)
		if !p.StepNarration(1) {
			break
		}
	}
	if len(titles) < len(p.Result(B).Narration) {
		t.Fatalf("visited %d captions of B, want all %d: %q", len(titles), len(p.Result(B).Narration), titles)
	}
	if titles[len(titles)-1] != "Done" {
		t.Fatalf("last caption %q", titles[len(titles)-1])
	}
	for p.StepNarration(-1) {
	}
	if p.Cursor() != 0 {
		t.Fatalf("narration steps back to %v, want 0", p.Cursor())
	}
}

func TestSpeedAndTick(t *testing.T) {
	p := New(demoPair(t, "4KiB"))
	p.SetSpeed(100)
	if p.Speed() != MaxSpeed {
		t.Fatalf("speed %d not clamped", p.Speed())
	}
	p.SetSpeed(0)
	p.Play()
	p.Tick(BaseDuration / 2)
	if d := p.Progress() - 0.5; d < -0.01 || d > 0.01 {
		t.Fatalf("half the base duration at speed 0 played %v of the run", p.Progress())
	}
	p.Faster()
	p.Tick(BaseDuration / 4)
	if p.Progress() != 1 || p.Playing() {
		t.Fatalf("at double speed a quarter more should finish: %v playing=%v", p.Progress(), p.Playing())
	}
	v := p.Version()
	if p.Tick(time.Second) || p.Version() != v {
		t.Fatal("a paused player moved")
	}
}

func TestNoAllocationWhilePlaying(t *testing.T) {
	p := New(demoPair(t, "64KiB"))
	p.SetSpeed(2)
	p.Play()
	p.Tick(time.Millisecond)
	p.States()
	allocs := testing.AllocsPerRun(200, func() {
		if !p.Playing() {
			p.Seek(0)
			p.Play()
		}
		p.Tick(16 * time.Millisecond)
		p.States()
		p.StepEvent(-1)
		p.StepEvent(1)
		p.Play()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per frame", allocs)
	}
}

func TestNilResults(t *testing.T) {
	p := New(nil, nil)
	p.Play()
	p.Tick(time.Second)
	p.StepEvent(1)
	p.StepNarration(-1)
	if a, b := p.States(); a == nil || b == nil {
		t.Fatal("nil states")
	}
	if _, _, ok := p.Caption(A); ok {
		t.Fatal("caption without results")
	}
	if _, err := ParseAlign("sideways"); err == nil {
		t.Fatal("bad align accepted")
	}
}
