package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dmaviz/dmaviz/play"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/render/svg"
	"github.com/dmaviz/dmaviz/urlstate"
)

// runExport writes the stage frame a URL would show (same choices, cursor
// and alignment) as a standalone SVG.
func runExport(args []string, stdout, stderr io.Writer) int {
	usage := "usage: dmaviz export <scenario> [--a policy] [--b policy] [--preset id] [--param k=v ...] [--url query] [--align time|progress] [--zoom first:count] [--at <time|end>, default end] --svg <file|-> [--light] [--size WxH]"
	c, err := parseArgs(args, flagSet("a", "b", "preset", "param", "url", "align", "zoom", "at", "svg", "light", "size"))
	if err == nil && c.svg == "" {
		err = fmt.Errorf("missing --svg <file>")
	}
	if err == nil && c.at != "" && c.at != "end" {
		c.values.Set(urlstate.KeyCursor, c.at)
	}
	if err == nil && c.at == "" && !c.values.Has(urlstate.KeyCursor) {
		c.at = "end" // no time given: the finished runs, not the empty start
	}
	if err != nil {
		fmt.Fprintln(stderr, "dmaviz export:", err)
		fmt.Fprintln(stderr, usage)
		return 2
	}
	r, ok := resolve(c, stderr)
	if !ok {
		return 2
	}
	p := play.New(r.a, r.b)
	p.SetAlign(r.state.Align)
	if c.at == "end" {
		p.End()
	} else {
		if r.state.Cursor > p.Length() {
			fmt.Fprintf(stderr, "dmaviz export: --at %s is past the end of the run; allowed 0..%s, or end\n",
				r.state.Cursor, p.Length())
			return 2
		}
		p.Seek(r.state.Cursor)
	}
	sa, sb := p.States()
	f := render.Frame{
		A:      render.Side{Result: r.a, State: sa, Time: p.SideTime(play.A), PolicyTitle: policyTitle(r, r.a.Policy)},
		B:      render.Side{Result: r.b, State: sb, Time: p.SideTime(play.B), PolicyTitle: policyTitle(r, r.b.Policy)},
		Cursor: p.Cursor(), Length: p.Length(), Progress: r.state.Align == play.AlignProgress,
		W: float32(c.width), H: float32(c.height),
		Zoom:    render.Zoom{First: r.state.ZoomFirst, Count: r.state.ZoomCount},
		MinCell: exportMinCell,
	}
	var scene render.Scene
	render.NewStage().Build(&scene, &f)
	opt := svg.Options{Titles: true}
	if c.light {
		l := render.Light()
		opt.Palette = &l
	}
	if c.svg == "-" {
		if err := svg.Write(stdout, &scene, opt); err != nil {
			fmt.Fprintln(stderr, "dmaviz export:", err)
			return 1
		}
		return 0
	}
	var doc strings.Builder
	if err := svg.Write(&doc, &scene, opt); err != nil {
		fmt.Fprintln(stderr, "dmaviz export:", err)
		return 1
	}
	if err := os.WriteFile(c.svg, []byte(doc.String()), 0o644); err != nil {
		fmt.Fprintln(stderr, "dmaviz export:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %s vs %s at %s)\n", c.svg, r.spec.ID, r.a.Policy, r.b.Policy, p.Cursor())
	return 0
}

// exportMinCell is the smallest grid square in an exported figure: large
// buffers aggregate more cells per square than on the stage, so a figure
// of sg-sync's 10 MiB list stays a few hundred KB.
const exportMinCell = 10

func policyTitle(r *resolved, id string) string {
	if p, err := r.spec.Policy(id); err == nil {
		return p.ID + " · " + p.Title
	}
	return id
}
