// Package lesson holds the lesson paths: ordered stops through the
// scenarios at their lesson size, each with a question for the class, the
// answer to reveal after it, and a teacher's note. A path is opened with
// ?lesson=ID (and &stop=N, counted from 1); the panel shows the stop over
// the scenario's own narration, and next/previous move between stops.
//
// The words are data. Every figure a stop quotes is declared beside it
// (Figure: which run, which metric, the text as quoted), and a test runs
// each stop and checks every declared figure against the model, so the
// text cannot go stale when the model moves.
package lesson

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/urlstate"
)

// Path is one lesson: an id for the URL, a title and its stops in order.
type Path struct {
	ID, Title string
	Stops     []Stop
}

// Stop is one scenario setting of a lesson and what to say about it.
type Stop struct {
	// Scenario, A and B are the scenario and policy pair the stop opens,
	// at the scenario's lesson size (scenario.Spec.Lesson).
	Scenario, A, B string
	// Title names the stop in a few words ("A stale copy costs nothing").
	Title string
	// Question is asked before the reveal: shown first, with the stage at
	// its start.
	Question string
	// Answer is the reveal: what happened, with the figures to quote.
	Answer string
	// Watch says what to follow on the stage while it plays.
	Watch string
	// Note is for the teacher.
	Note Note
	// Figures declares every model figure Answer and Note quote.
	Figures []Figure
}

// Note is the teacher's note of a stop.
type Note struct {
	Point         string // what to point at on the stage
	Quote         string // the figure to quote
	Misconception string // the misconception the stop addresses
}

// Figure is a number a stop quotes, declared so that a test can hold it
// to the model's run at the lesson size.
type Figure struct {
	// Policy is the run quoted: a policy id of the stop's scenario, or
	// "" for the stop's A and B as Side says.
	Policy string
	// Side is 'A' or 'B' (the stop's pair) when Policy is "".
	Side byte
	// Metric is the metric's name (Result.Metric).
	Metric string
	// Ratio, "A/B" or "B/A", quotes Metric of one side over the other's
	// (then Side is unused).
	Ratio string
	// Paper runs the scenario at its paper size (the defaults) instead.
	Paper bool
	// Scale multiplies the value before it is printed (1e-6 for Mpps);
	// 0 means 1.
	Scale float64
	// Given marks a figure of the setting rather than of the outcome (how
	// many lines a buffer has, how many barriers a policy issues by
	// design): the page shows it before the reveal.
	Given bool
	// Text is the figure as the stop prints it: digits with optional
	// thousands separators and decimals ("4,096", "0.256", "2.5"). The
	// model's value, rounded to as many decimals, must print the same.
	Text string
}

// Paths lists every lesson path by id.
func Paths() []Path { return []Path{dma} }

// Get returns the path with id; the error names the allowed ids.
func Get(id string) (Path, error) {
	for _, p := range Paths() {
		if p.ID == id {
			return p, nil
		}
	}
	return Path{}, fmt.Errorf("lesson: %s is not allowed; allowed %s", quote(id), strings.Join(IDs(), ", "))
}

// IDs lists the path ids, sorted.
func IDs() []string {
	var ids []string
	for _, p := range Paths() {
		ids = append(ids, p.ID)
	}
	sort.Strings(ids)
	return ids
}

// Sizes maps each path's id to its number of stops (the URL codec's
// check of lesson= and stop=).
func Sizes() map[string]int {
	m := map[string]int{}
	for _, p := range Paths() {
		m[p.ID] = len(p.Stops)
	}
	return m
}

// Stop returns stop n (counted from 1), clamped to the path.
func (p Path) Stop(n int) Stop {
	if len(p.Stops) == 0 {
		return Stop{}
	}
	return p.Stops[min(max(n, 1), len(p.Stops))-1]
}

// Position is "2 of 5".
func Position(n, of int) string { return fmt.Sprintf("%d of %d", n, of) }

func quote(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// Query is the stop's setting as URL values for the page: the scenario,
// its pair and the lesson size.
func (s Stop) Query() map[string][]string {
	return map[string][]string{
		urlstate.KeyScenario: {s.Scenario}, urlstate.KeyA: {s.A}, urlstate.KeyB: {s.B},
		urlstate.KeySize: {scenario.SizeLesson.String()},
	}
}
