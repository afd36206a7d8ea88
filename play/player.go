// Package play is the A/B player: it holds two recorded Results and a cursor
// on one common axis, and turns transport commands (play, pause, step by
// event or by narration step, seek, speed, alignment) into the two States
// the views draw. It never re-runs the model and never reads the wall
// clock: the caller passes elapsed time to Tick.
//
// The cursor is a sim.Time on the common axis, which runs from 0 to Length,
// the longer of the two runs. Aligned on time, each side's time is the
// cursor itself, so the faster run finishes first, visibly. Aligned on
// progress, the axis is stretched onto each run: a side's time is
// cursor*End/Length, so both finish together.
package play

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Align says how the two runs share the cursor.
type Align uint8

const (
	AlignTime     Align = iota // same simulated time on both sides
	AlignProgress              // same fraction of each run
)

func (a Align) String() string {
	if a == AlignProgress {
		return "progress"
	}
	return "time"
}

// ParseAlign reads "time" or "progress".
func ParseAlign(s string) (Align, error) {
	switch s {
	case "time":
		return AlignTime, nil
	case "progress":
		return AlignProgress, nil
	}
	return AlignTime, fmt.Errorf("align: %q is not allowed; allowed time or progress", s)
}

// Speed steps: at speed 0 a whole run plays in BaseDuration; each step up
// doubles the speed, each step down halves it.
const (
	MinSpeed     = -8
	MaxSpeed     = 8
	BaseDuration = 10 * time.Second
)

// Sides.
const (
	A = 0
	B = 1
)

// Player plays two Results. The zero value has no results; use New.
type Player struct {
	res     [2]*scenario.Result
	length  sim.Time
	cursor  sim.Time
	frac    float64 // sub-picosecond remainder of Tick, in ps
	speed   int
	playing bool
	align   Align

	// Holds at narration steps (dwell.go): layers are the steps on the
	// common axis, next how many of them playback has reached, hold how
	// much wall time the last reached one still holds the cursor.
	dwell  bool
	layers []layer
	holds  []time.Duration // per layer, at the current speed
	marks  []mark
	next   int
	hold   time.Duration

	// st[i] is side i's state after applied[i] events.
	st      [2]timeline.State
	applied [2]int
	fresh   [2]bool // st[i] reflects res[i] (false after SetResults)
	version uint64
}

// New returns a player at the start of a and b, paused, aligned on time,
// holding at narration steps while playing.
func New(a, b *scenario.Result) *Player {
	p := &Player{dwell: true}
	p.SetResults(a, b)
	return p
}

// SetResults replaces both runs (after a parameter change), keeping the
// cursor's position as a fraction of the run.
func (p *Player) SetResults(a, b *scenario.Result) {
	var f float64
	if p.length > 0 {
		f = float64(p.cursor) / float64(p.length)
	}
	p.res = [2]*scenario.Result{a, b}
	p.length = max(p.end(A), p.end(B))
	p.fresh = [2]bool{}
	p.frac = 0
	p.seek(sim.Time(f * float64(p.length)))
	p.buildLayers()
	p.next = p.reached(p.cursor)
	p.version++
}

// Result returns side's result (nil when absent).
func (p *Player) Result(side int) *scenario.Result {
	if side < 0 || side > 1 {
		return nil
	}
	return p.res[side]
}

func (p *Player) timeline(side int) *timeline.Timeline {
	if r := p.Result(side); r != nil {
		return r.Timeline
	}
	return nil
}

func (p *Player) end(side int) sim.Time {
	if tl := p.timeline(side); tl != nil {
		return tl.End
	}
	return 0
}

// Length is the length of the common axis: the longer run's end.
func (p *Player) Length() sim.Time { return p.length }

// Cursor is the position on the common axis.
func (p *Player) Cursor() sim.Time { return p.cursor }

// Progress is Cursor/Length in [0, 1] (0 for an empty run).
func (p *Player) Progress() float64 {
	if p.length == 0 {
		return 0
	}
	return float64(p.cursor) / float64(p.length)
}

// Version changes whenever what the views show may have changed, so a
// painter can skip redrawing an unchanged frame.
func (p *Player) Version() uint64 { return p.version }

// Playing reports whether Tick advances the cursor.
func (p *Player) Playing() bool { return p.playing }

// Play starts playback (from the start when at the end). From the start
// of the run it holds at the first steps as at any other (a first visit
// plays at once, and its first step must be read too); elsewhere it goes
// on from the step on screen, which the reader has seen.
func (p *Player) Play() {
	if p.cursor >= p.length {
		p.seek(0)
	}
	if p.cursor == 0 && p.hold == 0 && len(p.layers) > 0 && p.layers[0].c == 0 {
		p.reach(0)
	}
	p.playing = true
	p.version++
}

// Pause stops playback.
func (p *Player) Pause() {
	p.playing = false
	p.version++
}

// Toggle plays or pauses.
func (p *Player) Toggle() {
	if p.playing {
		p.Pause()
	} else {
		p.Play()
	}
}

// Speed is the log-scale speed step in [MinSpeed, MaxSpeed].
func (p *Player) Speed() int { return p.speed }

// SetSpeed sets the speed step, clamped. A hold in progress is cut to the
// new speed's hold, if shorter.
func (p *Player) SetSpeed(k int) {
	p.speed = min(max(k, MinSpeed), MaxSpeed)
	p.planHolds()
	if p.hold > 0 {
		p.hold = min(p.hold, p.holdAt(p.next-1))
	}
	p.version++
}

// Faster and Slower move one speed step.
func (p *Player) Faster() { p.SetSpeed(p.speed + 1) }
func (p *Player) Slower() { p.SetSpeed(p.speed - 1) }

// Rate is how much of the common axis one wall-clock second plays.
func (p *Player) Rate() float64 {
	r := float64(p.length) / BaseDuration.Seconds()
	if p.speed >= 0 {
		return r * float64(uint64(1)<<p.speed)
	}
	return r / float64(uint64(1)<<-p.speed)
}

// Align returns the alignment.
func (p *Player) Align() Align { return p.align }

// SetAlign changes the alignment, keeping the cursor.
func (p *Player) SetAlign(a Align) {
	if a != AlignProgress {
		a = AlignTime
	}
	p.align = a
	p.fresh = [2]bool{}
	p.buildLayers()
	p.next, p.hold = p.reached(p.cursor), 0
	p.version++
}

// Tick advances a playing cursor by dt of wall-clock time and reports
// whether what it shows changed (the cursor moved, a narration step came
// on screen, or playback stopped). A narration step reached holds the
// cursor for its hold (dwell.go) before it moves on; playback stops at the
// end.
func (p *Player) Tick(dt time.Duration) bool {
	if !p.playing || dt <= 0 {
		return false
	}
	c0, n0 := p.cursor, p.next
	for {
		for p.hold == 0 && p.next < len(p.layers) && p.layers[p.next].c <= p.cursor {
			p.reach(p.next)
		}
		if p.hold == 0 && p.cursor >= p.length {
			p.playing = false
			break
		}
		if dt <= 0 {
			break
		}
		if p.hold > 0 {
			used := min(dt, p.hold)
			p.hold -= used
			dt -= used
			continue
		}
		dt = p.advance(dt)
	}
	changed := p.cursor != c0 || p.next != n0 || !p.playing
	if changed {
		p.version++
	}
	return changed
}

// advance moves the cursor for up to dt of wall time, stopping at the next
// narration step or the end, and returns the wall time left.
func (p *Player) advance(dt time.Duration) time.Duration {
	target := p.length
	if p.next < len(p.layers) {
		target = p.layers[p.next].c
	}
	rate := p.Rate()
	if rate <= 0 {
		p.cursor = p.length
		return dt
	}
	step := rate*dt.Seconds() + p.frac
	if gap := float64(target - p.cursor); gap <= step {
		used := time.Duration((gap - p.frac) / rate * float64(time.Second))
		p.cursor, p.frac = target, 0
		return dt - min(max(used, 0), dt)
	}
	whole := sim.Time(step)
	p.frac = step - float64(whole)
	p.cursor += whole
	return 0
}

// Seek moves the cursor to t (clamped to [0, Length]).
func (p *Player) Seek(t sim.Time) {
	p.seek(t)
	p.version++
}

func (p *Player) seek(t sim.Time) {
	p.cursor = min(max(t, 0), p.length)
	p.frac = 0
	p.next, p.hold = p.reached(p.cursor), 0
}

// Start and End jump to either end.
func (p *Player) Start() { p.Seek(0) }
func (p *Player) End()   { p.Seek(p.length) }

// SideTime is side's simulated time at the cursor.
func (p *Player) SideTime(side int) sim.Time { return p.sideTime(side, p.cursor) }

func (p *Player) sideTime(side int, c sim.Time) sim.Time {
	e := p.end(side)
	if p.align == AlignTime || p.length == 0 {
		return min(c, max(e, 0))
	}
	return sim.Time(mulDiv(uint64(max(c, 0)), uint64(max(e, 0)), uint64(p.length), false))
}

// common is the smallest cursor at which side's time reaches t.
func (p *Player) common(side int, t sim.Time) sim.Time {
	if p.align == AlignTime {
		return t
	}
	e := p.end(side)
	if e <= 0 {
		return 0
	}
	return sim.Time(mulDiv(uint64(max(t, 0)), uint64(p.length), uint64(e), true))
}

// mulDiv returns a*b/c rounded down (or up) without overflow; c > 0.
func mulDiv(a, b, c uint64, up bool) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		return ^uint64(0) >> 1
	}
	q, r := bits.Div64(hi, lo, c)
	if up && r != 0 {
		q++
	}
	return q
}
