package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dmaviz/dmaviz/render/figure"
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
		// The stop's masked view is the page's (site/app); a command may
		// not depend on site/, so the CLI exports the stop's scenario URL.
		err = fmt.Errorf("--url: lesson: a lesson stop is not exported here; export its scenario's URL (the page's Export figure gives it)")
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
