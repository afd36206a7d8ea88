package play

import (
	"cmp"
	"slices"
	"sort"
	"time"
	"unicode/utf8"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Holding at narration steps. Playing maps wall time onto the run
// linearly, so steps close in simulated time (etr's barrier packet and its
// copy to the AUX ring, 1 ns apart in a 38.8 µs run) would pass within one
// frame. While playing, the player therefore holds the cursor where a step
// starts, with the stage showing the moment the step names, until the step
// has been on screen for its Dwell; then it moves on. The hold only tops
// up: a step whose next step comes later than its Dwell anyway is not held
// at all, so a run whose steps are already far apart plays as before.
//
// A step's Dwell is what a class needs to see the moment the step names,
// read its title and start on its text: DwellPerRune per character of
// title and text, between DwellMin (a short caption's title and one look
// at the stage; also the usual shortest time a subtitle stays up) and
// DwellMax (about the title and first sentence, 15 words at the 250 words
// a minute of ordinary reading). The whole text of a long step, a
// paragraph of 60 to 100 words, is for the class to read with the teacher,
// who pauses for it. DwellPerRune puts the usual step (150 to 400
// characters) between the two (assumed; the run's playing time at ×1 for
// each scenario is in the tests' log).
//
// Dwells are wall time at speed ×1. Faster speeds shorten them in
// proportion, as they do the run; slower speeds do not lengthen them (the
// run itself slows, so fewer steps need a hold). Seeking, scrubbing,
// stepping and jumping never hold: a hold starts only when playback itself
// reaches a step (or starts playing from the start of the run, where the
// first steps are).
const (
	DwellMin     = 1500 * time.Millisecond
	DwellMax     = 4 * time.Second
	DwellPerRune = 10 * time.Millisecond
)

// Dwell is how long step should be on screen while playing at speed ×1.
func Dwell(step scenario.Step) time.Duration {
	n := utf8.RuneCountInString(step.Title) + utf8.RuneCountInString(step.Text)
	return min(max(time.Duration(n)*DwellPerRune, DwellMin), DwellMax)
}

// layer is one stop of playback on the common axis: the steps of either
// side that start at c and are shown together. Two steps of one side that
// start at the same time are in consecutive layers, so each is shown in
// turn. dwell and natural are the steps' Dwell and how long the cursor
// takes at ×1 to the side's next step, which starts at layer until.
type layer struct {
	c       sim.Time
	step    [2]int // the side's step starting here, -1 for none
	upto    [2]int // the side's caption once this layer is reached
	until   [2]int
	dwell   [2]time.Duration
	natural [2]time.Duration
}

// mark is one step of one side on the common axis; rank counts the side's
// earlier steps at the same point.
type mark struct {
	c          sim.Time
	side, rank int
	step       int
}

// buildLayers places both sides' narration steps on the common axis,
// reusing the player's buffers. It runs when the results or the alignment
// change, never while playing.
func (p *Player) buildLayers() {
	p.marks = p.marks[:0]
	for side := A; side <= B; side++ {
		r := p.Result(side)
		if r == nil {
			continue
		}
		for i, s := range r.Narration {
			m := mark{c: min(max(p.common(side, s.T), 0), p.length), side: side, step: i}
			if n := len(p.marks); n > 0 && i > 0 && p.marks[n-1].c == m.c {
				m.rank = p.marks[n-1].rank + 1
			}
			p.marks = append(p.marks, m)
		}
	}
	slices.SortStableFunc(p.marks, func(a, b mark) int {
		return cmp.Or(cmp.Compare(a.c, b.c), cmp.Compare(a.rank, b.rank), cmp.Compare(a.side, b.side))
	})
	p.layers = p.layers[:0]
	upto, last := [2]int{-1, -1}, [2]int{-1, -1}
	for i, m := range p.marks {
		if i == 0 || m.c != p.marks[i-1].c || m.rank != p.marks[i-1].rank {
			p.layers = append(p.layers, layer{c: m.c, step: [2]int{-1, -1}})
		}
		k := len(p.layers) - 1
		l := &p.layers[k]
		if j := last[m.side]; j >= 0 {
			p.layers[j].until[m.side] = k
		}
		last[m.side] = k
		l.until[m.side] = len(p.marks) // past the last layer: the end
		steps := p.res[m.side].Narration
		next := p.length
		if m.step+1 < len(steps) {
			next = min(max(p.common(m.side, steps[m.step+1].T), m.c), p.length)
		}
		l.step[m.side] = m.step
		l.dwell[m.side] = Dwell(steps[m.step])
		l.natural[m.side] = p.atSpeed1(next - m.c)
		upto[m.side] = m.step
		l.upto = upto
	}
	p.planHolds()
}

// atSpeed1 is how long the cursor takes to move d at speed ×1.
func (p *Player) atSpeed1(d sim.Time) time.Duration {
	if p.length <= 0 {
		return 0
	}
	return time.Duration(float64(d) / float64(p.length) * float64(BaseDuration))
}

// factor is the speed as a multiple of ×1.
func (p *Player) factor() float64 {
	if p.speed >= 0 {
		return float64(uint64(1) << p.speed)
	}
	return 1 / float64(uint64(1)<<-p.speed)
}

// planHolds works out how long playback holds at each layer at the
// current speed, from the last layer back: the longest any of its steps
// needs beyond the time it stays on screen anyway, which is the time the
// cursor takes to that side's next step and the holds at the other side's
// steps on the way. Nothing holds at the end of the run, where playback
// stops with the last steps on screen.
func (p *Player) planHolds() {
	n := len(p.layers)
	p.holds = append(p.holds[:0], make([]time.Duration, n)...)
	if !p.dwell {
		return
	}
	f := p.factor()
	for k := n - 1; k >= 0; k-- {
		l := &p.layers[k]
		if k == n-1 && l.c >= p.length {
			continue
		}
		var h time.Duration
		for side := A; side <= B; side++ {
			if l.step[side] < 0 {
				continue
			}
			d := time.Duration(float64(l.dwell[side])/max(f, 1) - float64(l.natural[side])/f)
			for j := k + 1; j < min(l.until[side], n); j++ {
				d -= p.holds[j]
			}
			h = max(h, d)
		}
		p.holds[k] = h
	}
}

// holdAt is how long playback holds at layer k.
func (p *Player) holdAt(k int) time.Duration {
	if k < 0 || k >= len(p.holds) {
		return 0
	}
	return p.holds[k]
}

// reached is how many layers lie at or before t on the common axis.
func (p *Player) reached(t sim.Time) int {
	return sort.Search(len(p.layers), func(i int) bool { return p.layers[i].c > t })
}

// reach shows layer k (the cursor is at it) and starts its hold.
func (p *Player) reach(k int) {
	p.next = k + 1
	p.hold = p.holdAt(k)
	p.version++
}

// SetDwell turns the holds at narration steps on (the default) or off.
func (p *Player) SetDwell(on bool) {
	p.dwell = on
	p.planHolds()
	p.hold = min(p.hold, p.holdAt(p.next-1))
}

// Holding reports whether playback is holding at a narration step.
func (p *Player) Holding() bool { return p.playing && p.hold > 0 }

// PlayTime is how long the whole run plays at the current speed, from the
// start, holds included.
func (p *Player) PlayTime() time.Duration {
	t := time.Duration(float64(BaseDuration) / p.factor())
	for k := range p.layers {
		t += p.holdAt(k)
	}
	return t
}
