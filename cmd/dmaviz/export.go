package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/render/figure"
	"github.com/dmaviz/dmaviz/site/firstview"
	"github.com/dmaviz/dmaviz/urlstate"
)

// runExport writes the stage frame a URL would show (same choices, cursor
// and alignment) as a standalone SVG.
func runExport(args []string, stdout, stderr io.Writer) int {
	usage := "usage: dmaviz export <scenario> [--a policy] [--b policy] [--preset id] [--param k=v ...] [--url query] [--board file] [--align time|progress] [--zoom first:count] [--at <time|end>, default end] --svg <file|-> [--light] [--size WxH]"
	c, err := parseArgs(args, flagSet("a", "b", "preset", "param", "url", "board", "align", "zoom", "at", "svg", "light", "size"))
	if err == nil && c.svg == "" {
		err = fmt.Errorf("missing --svg <file>")
	}
	if err == nil && c.at != "" && c.at != "end" {
		c.values.Set(urlstate.KeyCursor, c.at)
	}
	if err == nil && c.values.Has(urlstate.KeyLesson) {
		return exportLesson(c, stdout, stderr)
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
	var doc strings.Builder
	at, err := figure.Write(&doc, r.spec, r.a, r.b, r.state, figure.Options{End: c.at == "end", W: c.width, H: c.height, Light: c.light})
	var past *figure.PastEndError
	if errors.As(err, &past) {
		fmt.Fprintf(stderr, "dmaviz export: --at %s\n", past)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "dmaviz export:", err)
		return 1
	}
	if c.svg == "-" {
		if _, err := io.WriteString(stdout, doc.String()); err != nil {
			fmt.Fprintln(stderr, "dmaviz export:", err)
			return 1
		}
		return 0
	}
	if err := os.WriteFile(c.svg, []byte(doc.String()), 0o644); err != nil {
		fmt.Fprintln(stderr, "dmaviz export:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %s vs %s at %s)\n", c.svg, r.spec.ID, r.a.Policy, r.b.Policy, at)
	return 0
}

// exportLesson writes the stage a lesson stop's URL (lesson=dma&stop=N)
// opens with, as the page shows it before its answer is revealed: the
// stop's setting at its opening cursor, with the answer's figures kept
// back (the site's pre-rendered first view of the URL).
func exportLesson(c *cliArgs, stdout, stderr io.Writer) int {
	for _, f := range []struct {
		set  bool
		name string
	}{{c.at != "", "--at"}, {c.light, "--light"}, {c.board != "", "--board"}, {len(c.flags) > 0, "a setting flag"}} {
		if f.set {
			fmt.Fprintf(stderr, "dmaviz export: %s: a lesson URL draws its stop as the page opens it; drop %s, or export the stop's scenario URL\n", f.name, f.name)
			return 2
		}
	}
	v, err := firstview.Render(catalog.Registry(), platform.Parameters, c.values.Encode(), c.width, c.height)
	if err != nil {
		fmt.Fprintln(stderr, "dmaviz export:", err)
		return 2
	}
	if c.svg == "-" {
		_, err = stdout.Write(v.SVG)
	} else if err = os.WriteFile(c.svg, v.SVG, 0o644); err == nil {
		fmt.Fprintf(stdout, "wrote %s (%s stop %d, %s, before its answer at %s)\n", c.svg, v.Lesson, v.Stop, v.Scenario, v.Cursor)
	}
	if err != nil {
		fmt.Fprintln(stderr, "dmaviz export:", err)
		return 1
	}
	return 0
}
