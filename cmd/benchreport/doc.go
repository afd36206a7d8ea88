//go:build !js

package main

import (
	"fmt"
	"strings"
)

// doc is the Markdown report being written, and the budgets it checked.
type doc struct {
	strings.Builder
	budgets [][]string
}

// budget records a budget's verdict for the summary at the top.
func (d *doc) budget(what, measured string, ok bool) {
	d.budgets = append(d.budgets, []string{what, measured, verdict(ok)})
}

func (d *doc) h2(title string) { fmt.Fprintf(d, "## %s\n\n", title) }

// para writes a paragraph (fmt.Sprintf of format and args).
func (d *doc) para(format string, args ...any) {
	fmt.Fprintf(d, format, args...)
	d.WriteString("\n\n")
}

// table writes a Markdown table; cells must not hold "|".
func (d *doc) table(header []string, rows [][]string) {
	d.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		d.WriteString("---|")
	}
	d.WriteString("\n")
	for _, r := range rows {
		d.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	d.WriteString("\n")
}

func verdict(ok bool) string {
	if ok {
		return "within"
	}
	return "OVER"
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// ms formats nanoseconds as milliseconds (fig).
func ms(ns float64) string { return fig(ns / 1e6) }

// fig formats a positive figure with about three significant figures, or
// "–" when it is missing.
func fig(v float64) string {
	switch {
	case v <= 0:
		return "–"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

// ratio formats a/b, or "–" when either is missing.
func ratio(a, b float64) string {
	if a <= 0 || b <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2fx", a/b)
}
