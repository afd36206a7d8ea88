package play

import (
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// StepEvent moves the cursor to the next (dir > 0) or previous (dir < 0)
// point where either side's state changes, and reports whether it moved.
// Stepping forward then back returns to the same states.
func (p *Player) StepEvent(dir int) bool {
	return p.stepBy(dir)
}

// StepNarration moves the cursor to the next (dir > 0) or previous
// (dir < 0) narration step of either side, and reports whether it moved.
// Steps of both sides that start together are one stop; two steps of one
// side that start at the same time are two stops at the same cursor, each
// showing its own step. Stepping pauses and never holds.
func (p *Player) StepNarration(dir int) bool {
	switch {
	case dir > 0 && p.next < len(p.layers):
		p.pauseAt(p.layers[p.next].c, p.next+1)
	case dir > 0 && p.cursor < p.length:
		p.pauseAt(p.length, p.reached(p.length))
	case dir < 0 && p.next > 0 && p.cursor > p.layers[p.next-1].c:
		p.pauseAt(p.layers[p.next-1].c, p.next)
	case dir < 0 && p.next > 1:
		p.pauseAt(p.layers[p.next-2].c, p.next-1)
	case dir < 0 && p.cursor > 0:
		p.pauseAt(0, 0)
	default:
		return false
	}
	return true
}

// pauseAt pauses with the cursor at c and the first reached layers shown.
func (p *Player) pauseAt(c sim.Time, reached int) {
	p.Pause()
	p.Seek(c)
	p.next = reached
}

// stepBy finds the nearest change point on the common axis strictly after
// (dir > 0) or before (dir < 0) the cursor, over both sides' events.
func (p *Player) stepBy(dir int) bool {
	if dir == 0 {
		return false
	}
	best, found := sim.Time(0), false
	for side := A; side <= B; side++ {
		pts := p.points(side)
		if dir > 0 {
			i := pts.after(p.sideTime(side, p.cursor))
			if i < pts.len() {
				if c := p.common(side, pts.at(i)); !found || c < best {
					best, found = c, true
				}
			}
			continue
		}
		if p.cursor == 0 {
			continue
		}
		i := pts.after(p.sideTime(side, p.cursor-1))
		c := sim.Time(0)
		if i > 0 {
			c = p.common(side, pts.at(i-1))
		}
		if !found || c > best {
			best, found = c, true
		}
	}
	if dir > 0 && !found && p.cursor < p.length {
		best, found = p.length, true
	}
	if !found || best == p.cursor {
		return false
	}
	p.Pause()
	p.Seek(best)
	return true
}

// changePoints is a time-ordered list of events.
type changePoints struct {
	ev []timeline.Event
}

func (c changePoints) len() int { return len(c.ev) }

func (c changePoints) at(i int) sim.Time { return c.ev[i].T }

// after returns the index of the first point later than t.
func (c changePoints) after(t sim.Time) int {
	lo, hi := 0, c.len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c.at(m) > t {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

func (p *Player) points(side int) changePoints {
	if tl := p.timeline(side); tl != nil {
		return changePoints{ev: tl.Events}
	}
	return changePoints{}
}

// Caption returns side's current narration step, its index, and whether
// there is one: the last one at or before its time, but for two steps of
// the side that start at the same time, which playback and stepping show
// one after the other.
func (p *Player) Caption(side int) (scenario.Step, int, bool) {
	r := p.Result(side)
	if r == nil || side < 0 || side > 1 || p.next == 0 {
		return scenario.Step{}, -1, false
	}
	i := p.layers[p.next-1].upto[side]
	if i < 0 || i >= len(r.Narration) {
		return scenario.Step{}, -1, false
	}
	return r.Narration[i], i, true
}

// Applied is how many of side's events the state at the cursor includes.
func (p *Player) Applied(side int) int {
	p.State(side)
	return p.applied[side]
}

// States returns both sides' states at the cursor. The pointers stay valid
// and are overwritten by later calls; callers must not modify them.
func (p *Player) States() (a, b *timeline.State) {
	return p.State(A), p.State(B)
}

// State returns side's state at the cursor, updating a reused buffer:
// forward moves replay only the new events, other moves go through the
// nearest keyframe. It does not allocate once the buffers are sized.
func (p *Player) State(side int) *timeline.State {
	if side < 0 || side > 1 {
		return nil
	}
	st := &p.st[side]
	tl := p.timeline(side)
	if tl == nil {
		*st = timeline.State{}
		p.applied[side] = 0
		return st
	}
	n := tl.EventsUntil(p.sideTime(side, p.cursor))
	cur := p.applied[side]
	switch {
	case p.fresh[side] && n == cur:
	case p.fresh[side] && n > cur && n-cur <= replayLimit:
		evs := tl.Events[cur:n]
		for i := range evs {
			st.Apply(&evs[i])
		}
	default:
		tl.StateAt(n, st)
	}
	p.applied[side] = n
	p.fresh[side] = true
	return st
}

// replayLimit is how many events a forward move replays before it prefers
// a keyframe.
const replayLimit = timeline.DefaultKeyEvery
