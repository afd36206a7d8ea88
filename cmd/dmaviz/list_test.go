package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// In each scenario's section the parameter columns line up, and the
// policy titles start in one column (long ids included).
func TestListColumnsAlign(t *testing.T) {
	code, out, _ := call(t, "list")
	require.Equal(t, 0, code)
	for _, section := range strings.Split(out, "\n\n") {
		cols := map[string]map[int]bool{"unit ": {}, "default ": {}, "allowed ": {}}
		titleCol := map[int]bool{}
		inPolicies := false
		for _, line := range strings.Split(section, "\n") {
			switch {
			case strings.HasPrefix(line, "  policies:"), strings.HasPrefix(line, "  presets:"):
				inPolicies = true
				continue
			case strings.HasPrefix(line, "  parameters:"):
				inPolicies = false
				continue
			}
			if inPolicies && strings.HasPrefix(line, "    ") {
				rest := line[4:]
				i := strings.Index(rest, "  ")
				require.Positive(t, i, line)
				titleCol[4+i+len(rest[i:])-len(strings.TrimLeft(rest[i:], " "))] = true
			}
			if strings.Contains(line, " unit ") {
				for w := range cols {
					cols[w][strings.Index(line, " "+w)] = true
				}
			}
		}
		for w, at := range cols {
			assert.LessOrEqual(t, len(at), 1, "column %q starts at %v in:\n%s", w, at, section)
		}
		assert.LessOrEqual(t, len(titleCol), 1, "policy titles start at %v in:\n%s", titleCol, section)
	}
}

// The run table prints B/A as the page does (never 0.000 for 2560 -> 1,
// "=" for equal values), units with their symbols, and which figures are
// per call and which whole-run totals.
func TestRunTablePrintsRatiosUnitsAndScope(t *testing.T) {
	code, out, errs := call(t, "run", "sg-sync", "--param", "total=256KiB", "--param", "iterations=2")
	require.Equal(t, 0, code, errs)
	assert.NotContains(t, out, " 0.000 ")
	assert.Regexp(t, `(?m)^dsb_count +- +per call +64 +1 +×0\.0156`, out)
	assert.Regexp(t, `(?m)^map_sg_us +µs +per call +`, out)
	assert.Regexp(t, `(?m)^dc_ops +- +per call .* =`, out)
	assert.Regexp(t, `(?m) whole run `, out)
}
