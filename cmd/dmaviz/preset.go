package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
)

const presetUsage = "usage: dmaviz preset list | dmaviz preset show <name> [--json]"

// runPreset lists the hardware presets or shows one preset's parameters
// with their values and provenance.
func runPreset(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, presetUsage)
		return 2
	}
	switch args[0] {
	case "list":
		if len(args) > 1 {
			fmt.Fprintln(stderr, presetUsage)
			return 2
		}
		return presetList(stdout)
	case "show":
		name, asJSON := "", false
		for _, a := range args[1:] {
			switch {
			case a == "--json" || a == "-json":
				asJSON = true
			case !strings.HasPrefix(a, "-") && name == "":
				name = a
			default:
				fmt.Fprintf(stderr, "dmaviz preset show: unexpected argument %q\n%s\n", a, presetUsage)
				return 2
			}
		}
		if name == "" {
			fmt.Fprintf(stderr, "dmaviz preset show: name a preset: %s\n%s\n", strings.Join(platform.Names(), ", "), presetUsage)
			return 2
		}
		ps, err := platform.Parameters(name)
		if err != nil {
			fmt.Fprintln(stderr, "dmaviz preset show:", err)
			return 2
		}
		if asJSON {
			return presetJSON(stdout, stderr, name, ps)
		}
		presetTable(stdout, name, ps)
		return 0
	}
	fmt.Fprintf(stderr, "dmaviz preset: unknown subcommand %q\n%s\n", args[0], presetUsage)
	return 2
}

// kindCounts is "measured 23 · derived 6 · assumed 25 · fitted 4".
func kindCounts(ps []provenance.Param) string {
	c := provenance.Counts(ps)
	var out []string
	for _, k := range provenance.Kinds {
		out = append(out, fmt.Sprintf("%s %d", k, c[k]))
	}
	return strings.Join(out, " · ")
}

func presetList(w io.Writer) int {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "preset\ttitle\tparameters\tfitted\tpublished figures")
	for _, p := range platform.Presets() {
		ps, err := platform.Parameters(p.Name)
		if err != nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%d: %s\t%s\t%s\n", p.Name, p.Title, len(ps), kindCounts(ps), fittedList(ps), p.Figure)
	}
	tw.Flush()
	return 0
}

// fittedList is "dram.latency -> etr/update_etr_buffer_us/coherent" for
// each fitted parameter, or "nothing".
func fittedList(ps []provenance.Param) string {
	var out []string
	for _, p := range ps {
		if p.Kind == provenance.Fitted {
			out = append(out, p.Path+" -> "+p.Figure)
		}
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, ", ")
}

func presetTable(w io.Writer, name string, ps []provenance.Param) {
	title := ""
	for _, p := range platform.Presets() {
		if p.Name == name {
			title = p.Title
		}
	}
	fmt.Fprintf(w, "%s · %s\n%d parameters: %s\n\n", name, title, len(ps), kindCounts(ps))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "path\tvalue\tkind\tsource or range")
	for i := range ps {
		p := &ps[i]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Path, p.Text, p.Kind, p.Describe())
	}
	tw.Flush()
}

// paramJSON is one parameter of `preset show --json`: value and unit,
// kind, and the source (measured: the document; derived: the formula;
// fitted: the figure's id, with how in note) or the range and why
// (assumed).
type paramJSON struct {
	Path  string      `json:"path"`
	Value float64     `json:"value"`
	Unit  string      `json:"unit"`
	Text  string      `json:"text"`
	Kind  string      `json:"kind"`
	Src   string      `json:"source,omitempty"`
	Note  string      `json:"note,omitempty"`
	Range *[2]float64 `json:"range,omitempty"`
	Why   string      `json:"why,omitempty"`
}

func paramsJSON(ps []provenance.Param) []paramJSON {
	out := make([]paramJSON, len(ps))
	for i, p := range ps {
		j := paramJSON{Path: p.Path, Value: p.Value, Unit: p.Unit, Text: p.Text, Kind: p.Kind.String()}
		switch p.Kind {
		case provenance.Assumed:
			j.Range, j.Why = &[2]float64{p.Low, p.High}, p.Source
		case provenance.Fitted:
			j.Src, j.Note = p.Figure, p.Source
		default:
			j.Src = p.Source
		}
		out[i] = j
	}
	return out
}

func presetJSON(w, stderr io.Writer, name string, ps []provenance.Param) int {
	doc := struct {
		Preset     string         `json:"preset"`
		Counts     map[string]int `json:"counts"`
		Parameters []paramJSON    `json:"parameters"`
	}{Preset: name, Counts: map[string]int{}, Parameters: paramsJSON(ps)}
	for k, n := range provenance.Counts(ps) {
		doc.Counts[k.String()] = n
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		fmt.Fprintln(stderr, "dmaviz preset show:", err)
		return 1
	}
	return 0
}
