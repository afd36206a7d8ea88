package site

import (
	"bytes"
	"encoding/base64"
	"strings"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/render/svg"
)

// Headline shows the scenario's headline chart (its main metric against its
// main parameter, A and B, published figures marked), drawn by the same
// code as `dmaviz sweep --svg`. Running says it is still being computed.
type Headline struct {
	Chart   *scenario.Chart
	Running bool
	Err     string
	// Untitled: the runs' own charts above it already carry the
	// section's heading.
	Untitled bool
	// Varies lists what the chart can vary (the scenario's parameter,
	// value "", then the board's values by path); Vary is the choice and
	// OnVary hears a new one.
	Varies  []Option
	Vary    string
	OnVary  func(path string)
	AttrMap vugu.AttrMap

	of    scenario.Chart
	url   string
	drawn bool // url is for of ("" when too large)
}

func (c *Headline) show() bool { return c.Chart != nil || c.Running || c.Err != "" }

func (c *Headline) id() string {
	if c.Chart != nil {
		return c.Chart.ID
	}
	return "headline"
}

// dataURL draws the chart once per chart (and marker position).
func (c *Headline) dataURL() string {
	if c.Chart == nil {
		return ""
	}
	if !c.drawn || !sameChart(&c.of, c.Chart) {
		var sc render.Scene
		render.ChartScene(&sc, c.Chart, 316, 190)
		var buf bytes.Buffer
		if err := svg.Write(&buf, &sc, svg.Options{}); err != nil {
			return ""
		}
		c.of, c.url = *c.Chart, "data:image/svg+xml;base64,"+base64.StdEncoding.EncodeToString(buf.Bytes())
		if len(c.url) > MaxChartURL {
			c.url = "" // too large for one DOM update: the panel would stop
		}
		c.drawn = true
	}
	return c.url
}

// sameChart compares what the picture depends on: the series are shared
// (never changed once computed), so their first point's address stands
// for them.
func sameChart(a, b *scenario.Chart) bool {
	if a.ID != b.ID || a.Mark != b.Mark || len(a.Series) != len(b.Series) || len(a.Published) != len(b.Published) {
		return false
	}
	for i := range a.Series {
		if len(a.Series[i].Points) != len(b.Series[i].Points) ||
			(len(a.Series[i].Points) > 0 && &a.Series[i].Points[0] != &b.Series[i].Points[0]) {
			return false
		}
	}
	return true
}

func (c *Headline) alt() string {
	if c.Chart == nil {
		return ""
	}
	return c.Chart.YLabel + " against " + c.Chart.XLabel
}

func (c *Headline) caption() string {
	switch {
	case c.Err != "":
		return "the chart could not be computed: " + c.Err
	case c.Chart == nil:
		return "computing the chart (one run per point)…"
	}
	s := c.Chart.YLabel + " against " + c.Chart.XLabel + ", A and B"
	if n := len(c.Chart.Series); n > 2 { // every policy (Headline.AllPolicies)
		s = c.Chart.YLabel + " against " + c.Chart.XLabel + ", A, B"
		for i, ser := range c.Chart.Series[2:] {
			if i == n-3 {
				s += " and " + ser.Name
			} else {
				s += ", " + ser.Name
			}
		}
	}
	if len(c.Chart.Published) > 0 {
		s += "; squares are the published figures"
	}
	if lo, hi, ok := xRange(c.Chart); ok && c.Chart.Mark > 0 {
		if c.Chart.Mark >= lo && c.Chart.Mark <= hi {
			s += "; the line marks the current setting"
		} else {
			s += "; the current setting is outside the range the page computes (dmaviz sweep covers any range)"
		}
	}
	return s
}

// xRange is the span of the chart's x values.
func xRange(ch *scenario.Chart) (lo, hi float64, ok bool) {
	for _, ser := range ch.Series {
		for _, p := range ser.Points {
			if !ok || p.X < lo {
				lo = p.X
			}
			if !ok || p.X > hi {
				hi = p.X
			}
			ok = true
		}
	}
	return lo, hi, ok
}

func (c *Headline) vary(path string) {
	if c.OnVary != nil {
		c.OnVary(path)
	}
}

// headlineVaries is what the headline chart can vary: the scenario's
// own parameter, then each numeric value of the board.
func (c *Root) headlineVaries() []Option {
	paths := c.App.WhatIfPaths()
	if len(paths) == 0 {
		return nil
	}
	own, _, _ := strings.Cut(c.App.Spec.Headline.Vary, "=")
	out := []Option{{"", own + " (the scenario's)"}}
	for _, p := range paths {
		out = append(out, Option{p, "board: " + p})
	}
	return out
}

func (c *Root) setHeadlineVary(path string) { c.rerun(c.App.SetHeadlineVary(path)) }

func (c *Root) headlineRunning() bool { r, _ := c.App.HeadlineStatus(c.Ctl.Run()); return r }

func (c *Root) headlineErr() string { _, e := c.App.HeadlineStatus(c.Ctl.Run()); return e }
