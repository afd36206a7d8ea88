package site

import (
	"fmt"
	"strings"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/site/app"
)

// Bands is the error-bar control under the metrics: a button that runs
// the pair at the assumed hardware parameters' extremes (`dmaviz run
// --uncertainty`), its progress and Cancel while it runs, then each
// figure's value and [low, high] with the parameter that dominates it.
type Bands struct {
	Show    bool
	State   app.BandsState
	Lines   []BandLine
	Start   func()
	Cancel  func()
	AttrMap vugu.AttrMap
}

// BandLine is one figure's band as the list shows it.
type BandLine struct {
	ID, Class, Text, Title string
}

func (c *Bands) start() {
	if c.Start != nil {
		c.Start()
	}
}

func (c *Bands) cancel() {
	if c.Cancel != nil {
		c.Cancel()
	}
}

func (c *Bands) buttonLabel() string {
	if c.State.Result != nil {
		return "Error bars computed"
	}
	return "Error bars"
}

func (c *Bands) buttonTitle() string {
	return "Run this pair with each assumed hardware parameter at the ends of its range (up to 32 pair runs) and show each figure's range"
}

func (c *Bands) value() string {
	if c.State.Total == 0 {
		return "0"
	}
	return fmt.Sprintf("%.3f", float64(c.State.Done)/float64(c.State.Total))
}

func (c *Bands) status() string {
	switch {
	case c.State.Running:
		return fmt.Sprintf("Computing error bars: %d of %d runs (the assumed parameters at the ends of their ranges).", c.State.Done, c.State.Total)
	case c.State.Canceled:
		return "Error bars canceled."
	case c.State.Err != "":
		return "The error bars could not be computed: " + c.State.Err
	case c.State.Result != nil:
		u := c.State.Result
		s := fmt.Sprintf("%d pair runs; each range is the figure over the assumed parameters' ends, alone and combined.", u.Runs)
		if len(u.Together) > 0 {
			s += fmt.Sprintf(" %d parameters the figures do not read moved together.", len(u.Together))
		}
		return s
	}
	return "How far do the assumed hardware parameters move these figures?"
}

// bandLines words u's figures, with the published figure of the spec's
// matching reference (its kind, and a finding when outside).
func bandLines(sp *scenario.Spec, u *report.Uncertainty) []BandLine {
	if u == nil {
		return nil
	}
	var out []BandLine
	for _, f := range u.Figures {
		l := BandLine{ID: f.Metric + " " + f.Side, Class: "band"}
		l.Text = fmt.Sprintf("%s %s: %s in [%s, %s]", f.Metric, f.Side, report.FormatNumber(f.Value), report.FormatNumber(f.Band.Low), report.FormatNumber(f.Band.High))
		if f.Band.Dominant != "" {
			l.Text += ", most from " + f.Band.Dominant
		}
		for i := range sp.References {
			r := &sp.References[i]
			if scenario.FigureID(sp.ID, r) != f.Figure {
				continue
			}
			l.Text += "; published " + report.FormatNumber(r.Value) + " (" + r.Kind() + ")"
			l.Title = r.Source
			if f.Band.Outside {
				l.Text += ": outside the band, a finding"
				l.Class += " finding"
			}
		}
		out = append(out, l)
	}
	if len(u.Notes) > 0 {
		out = append(out, BandLine{ID: "notes", Class: "band note", Text: strings.Join(u.Notes, "; ")})
	}
	return out
}
