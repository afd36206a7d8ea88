package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// runList prints every scenario with its policies (default A and B
// marked), presets and parameters (name, unit, default, range).
func runList(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: dmaviz list")
		return 2
	}
	for i, s := range catalog.Registry().All() {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		writeSpec(stdout, s.Spec())
	}
	return 0
}

func writeSpec(w io.Writer, sp *scenario.Spec) {
	fmt.Fprintf(w, "%s  %s\n", sp.ID, sp.Title)
	// Columns as wide as their longest entry, so they line up.
	idW := 0
	for _, p := range sp.Policies {
		idW = max(idW, len(p.ID))
	}
	if d := sp.Param("preset"); d != nil {
		for _, c := range d.Choices {
			idW = max(idW, len(c.Value))
		}
	}
	nameW, unitW, defW := 0, 1, 0
	for _, d := range sp.Params {
		nameW, unitW, defW = max(nameW, len(d.Name)), max(unitW, len(d.Unit)), max(defW, len(d.Default))
	}
	fmt.Fprintln(w, "  policies:")
	for _, p := range sp.Policies {
		var marks []string
		if p.ID == sp.DefaultA {
			marks = append(marks, "default A")
		}
		if p.ID == sp.DefaultB {
			marks = append(marks, "default B")
		}
		if p.Bug {
			marks = append(marks, "bug")
		}
		mark := ""
		if len(marks) > 0 {
			mark = " [" + strings.Join(marks, ", ") + "]"
		}
		fmt.Fprintf(w, "    %-*s  %s%s\n", idW, p.ID, p.Title, mark)
	}
	if d := sp.Param("preset"); d != nil {
		fmt.Fprintln(w, "  presets:")
		for _, c := range d.Choices {
			mark := ""
			if c.Value == sp.DefaultPreset {
				mark = " [default]"
			}
			fmt.Fprintf(w, "    %-*s  %s%s\n", idW, c.Value, c.Label, mark)
		}
	}
	fmt.Fprintln(w, "  parameters:")
	for _, d := range sp.Params {
		unit := d.Unit
		if unit == "" {
			unit = "-"
		}
		fmt.Fprintf(w, "    %-*s  unit %-*s  default %-*s  allowed %s\n", nameW, d.Name, unitW, unit, defW, d.Default, d.Range())
	}
	if len(sp.Lesson) > 0 {
		var kv []string
		for _, v := range sp.Lesson {
			kv = append(kv, v.Name+"="+v.Value)
		}
		fmt.Fprintf(w, "  lesson size (--url size=lesson): %s\n", strings.Join(kv, " "))
	}
	for _, r := range sp.References {
		pol := r.Policy
		if pol == "" {
			pol = "A/B"
		}
		fmt.Fprintf(w, "  reference: %s (%s) = %g, source: %s\n", r.Metric, pol, r.Value, r.Source)
	}
}
