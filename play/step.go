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
	return p.stepBy(dir, true)
}

// StepNarration moves the cursor to the next or previous narration step of
// either side.
func (p *Player) StepNarration(dir int) bool {
	return p.stepBy(dir, false)
}

// stepBy finds the nearest change point on the common axis strictly after
// (dir > 0) or before (dir < 0) the cursor, over both sides' events or
// narration times.
func (p *Player) stepBy(dir int, events bool) bool {
	if dir == 0 {
		return false
	}
	best, found := sim.Time(0), false
	for side := A; side <= B; side++ {
		pts := p.points(side, events)
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

// changePoints is a time-ordered list of either events or narration steps.
type changePoints struct {
	ev    []timeline.Event
	steps []scenario.Step
}

func (c changePoints) len() int { return len(c.ev) + len(c.steps) }

func (c changePoints) at(i int) sim.Time {
	if c.ev != nil {
		return c.ev[i].T
	}
	return c.steps[i].T
}

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

func (p *Player) points(side int, events bool) changePoints {
	r := p.Result(side)
	switch {
	case r == nil:
		return changePoints{}
	case events && r.Timeline != nil:
		return changePoints{ev: r.Timeline.Events}
	case !events:
		return changePoints{steps: r.Narration}
	}
	return changePoints{}
}

// Caption returns side's current narration step (the last one at or before
// its time), its index, and whether there is one.
func (p *Player) Caption(side int) (scenario.Step, int, bool) {
	r := p.Result(side)
	if r == nil {
		return scenario.Step{}, -1, false
	}
	i := changePoints{steps: r.Narration}.after(p.SideTime(side)) - 1
	if i < 0 {
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
