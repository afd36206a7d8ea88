package site

import (
	"strconv"
	"strings"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/site/app"
)

// BoardSection is the panel's Board section: the preset the runs use and
// every hardware value of it, grouped by unit, each with its unit, its
// provenance and a mark when the value is the user's, with a reset per
// value and for all. It opens on a click and is closed at first (the
// first view the site builder renders shows the closed line). An edit
// raises Rerun with whether a run is due.
type BoardSection struct {
	App     *app.App
	Rerun   func(changed bool)
	Open    bool
	AttrMap vugu.AttrMap
}

func (c *BoardSection) toggle() { c.Open = !c.Open }

func (c *BoardSection) expanded() string { return strconv.FormatBool(c.Open) }

func (c *BoardSection) toggleTitle() string {
	if c.Open {
		return "Hide the board's values"
	}
	return "Show and edit every hardware value of the board, with where it comes from"
}

// summary is the section's closed line: "▸ Board: juno-r2 · 64 parameters:
// 27 measured, 8 derived, 28 assumed, 1 fitted · 2 yours".
func (c *BoardSection) summary() string {
	return BoardSummary(c.Open, c.App.Preset(), c.App.PresetParams(), c.App.BoardOwn())
}

// BoardSummary is the Board section's heading line.
func BoardSummary(open bool, preset string, ps []provenance.Param, own int) string {
	s := "▸ Board: "
	if open {
		s = "▾ Board: "
	}
	if preset == "" {
		return s + "none (this scenario runs on no preset)"
	}
	s += preset
	if len(ps) > 0 {
		n := provenance.Counts(ps)
		parts := make([]string, 0, len(provenance.Kinds))
		for _, k := range provenance.Kinds {
			parts = append(parts, strconv.Itoa(n[k])+" "+k.String())
		}
		s += " · " + strconv.Itoa(len(ps)) + " parameters: " + strings.Join(parts, ", ")
	}
	if own > 0 {
		s += " · " + strconv.Itoa(own) + " yours"
	}
	return s
}

func (c *BoardSection) groups() []app.BoardGroup { return c.App.BoardGroups() }

func (c *BoardSection) presets() []Option {
	if c.App.Spec == nil {
		return nil
	}
	if d := c.App.Spec.Param("preset"); d != nil {
		return paramOptions(d)
	}
	return nil
}

func (c *BoardSection) rerun(changed bool) {
	if c.Rerun != nil {
		c.Rerun(changed)
	}
}

func (c *BoardSection) setPreset(id string)   { c.rerun(c.App.SetParam("preset", id)) }
func (c *BoardSection) set(path, text string) { c.rerun(c.App.SetBoard(path, text)) }
func (c *BoardSection) reset(path string)     { c.rerun(c.App.ResetBoard(path)) }
func (c *BoardSection) resetAll()             { c.rerun(c.App.ResetBoard("")) }
func (c *BoardSection) resetTitle(f app.BoardField) string {
	return "Back to the preset's " + f.Param.Text
}
func (c *BoardSection) resetAllText() string {
	return "Reset all (" + strconv.Itoa(c.App.BoardOwn()) + ")"
}
func (c *BoardSection) describe(f app.BoardField) string { return BoardFieldTitle(f) }
func (c *BoardSection) detail(f app.BoardField) string   { return BoardFieldDetail(f) }

func (c *BoardSection) fieldClass(f app.BoardField) string {
	cl := "board-field " + f.Param.Kind.String()
	if f.Own {
		cl += " own"
	}
	return cl
}

func (c *BoardSection) inputClass(f app.BoardField) string {
	if f.Err != "" {
		return "bad"
	}
	return ""
}

// BoardFieldTitle is a field's tooltip: its kind and provenance in full.
func BoardFieldTitle(f app.BoardField) string {
	return f.Param.Kind.String() + ": " + f.Param.Describe()
}

// BoardFieldDetail is the line under a field: the unit, the preset's value
// when the user's differs, what it takes, and the source (cut by the
// style sheet to one line; the tooltip has it all).
func BoardFieldDetail(f app.BoardField) string {
	var parts []string
	switch f.Param.Unit {
	case "":
	case "B":
		parts = append(parts, "in bytes")
	default:
		parts = append(parts, "in "+f.Param.Unit)
	}
	if f.Own {
		parts = append(parts, "preset "+f.Param.Text)
	}
	if f.Fixed {
		parts = append(parts, "fixed by the scenario")
	}
	parts = append(parts, f.Param.Describe())
	return strings.Join(parts, " · ")
}
