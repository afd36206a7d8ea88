package catalog

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
)

var update = flag.Bool("update", false, "rewrite the scenario x board section of docs/BOARDS.md")

// boardsDoc is the document whose section boardsHeading the matrix is.
const (
	boardsDoc     = "../../docs/BOARDS.md"
	boardsHeading = "## Scenarios on each board"
)

// traceScenarios are the scenarios whose trace unit writes through the
// core's TLBs, by the unit (platform.TraceUnit).
var traceScenarios = map[string]string{"trbe-aux": "TRBE", "spe-aux": "SPE"}

// cell is one scenario on one built-in board at one size: nil err runs.
type cell struct {
	scenario, board string
	size            scenario.Size
	err             error
}

// runOnBoard runs s on board at size: the pair of default policies at the
// lesson size; at the paper size the default A alone (a refusal comes
// from the parameters, the same for both sides, and the paper runs are
// the long ones). A board the preset parameter does not offer is refused
// by the parameter.
func runOnBoard(ctx context.Context, s scenario.Scenario, board string, size scenario.Size) error {
	spec := s.Spec()
	p, err := spec.SizeParams(size)
	if err != nil {
		return err
	}
	if err := spec.Set(p, "preset", board); err != nil {
		return err
	}
	if size == scenario.SizeLesson {
		_, _, err = scenario.RunPair(ctx, s, p, spec.DefaultA, spec.DefaultB, nil, nil)
	} else {
		_, err = scenario.RunSide(ctx, s, p, 0, spec.DefaultA, nil)
	}
	if se := (*scenario.SideError)(nil); errors.As(err, &se) {
		return se.Err // the refusal itself, as the panel and the CLI show it under the side
	}
	return err
}

// boardMatrix is every scenario on every built-in board at its paper and
// lesson sizes.
func boardMatrix(t *testing.T) []cell {
	var out []cell
	for _, s := range Registry().All() {
		for _, board := range platform.Names() {
			for _, size := range []scenario.Size{scenario.SizePaper, scenario.SizeLesson} {
				err := runOnBoard(t.Context(), s, board, size)
				out = append(out, cell{s.Spec().ID, board, size, err})
			}
		}
	}
	return out
}

// refusalSaysWhy reports what a refusal lacks: it must open with the
// parameter to change ("name: "), name the board, say what the board
// lacks ("needs ... has none") or which resource is short and by how much
// ("short"), and give the allowed value ("allowed"). A scenario that is
// no board model (the shell's demo, with hand-set costs) may refuse a
// board by its preset parameter's choices: "preset: ... allowed one of".
func refusalSaysWhy(spec *scenario.Spec, board string, err error) []string {
	msg := err.Error()
	var missing []string
	name, _, ok := strings.Cut(msg, ": ")
	if !ok || spec.Param(name) == nil {
		missing = append(missing, "the parameter to change, first")
	}
	if !strings.Contains(strings.ToLower(msg), "allowed") {
		missing = append(missing, "the allowed value")
	}
	if !spec.OnBoard {
		if name != "preset" || !strings.Contains(msg, "allowed one of") {
			missing = append(missing, "the presets it has costs for")
		}
		return missing
	}
	if !strings.Contains(msg, board) {
		missing = append(missing, "the board")
	}
	lacks := strings.Contains(msg, "needs") && strings.Contains(msg, "has none")
	if !lacks && !strings.Contains(msg, "short") {
		missing = append(missing, "what the board lacks or which resource is short and by how much")
	}
	return missing
}

// Every scenario runs on every built-in board at its defaults and at its
// lesson size, or refuses saying why (refusalSaysWhy); a board scenario
// that runs at its defaults on a board also runs there at its lesson size.
// The matrix is docs/BOARDS.md's section (go test -run BoardMatrix
// -update rewrites it).
func TestBoardMatrixRunsOrSaysWhy(t *testing.T) {
	cells := boardMatrix(t)
	runs := map[string]bool{}
	for _, c := range cells {
		spec := mustSpec(t, c.scenario)
		if c.err == nil {
			runs[c.scenario+"/"+c.board+"/"+c.size.String()] = true
			continue
		}
		if missing := refusalSaysWhy(spec, c.board, c.err); len(missing) > 0 {
			assert.Fail(t, "vague refusal", "%s on %s at %s size: %q does not give %s", c.scenario, c.board, c.size, c.err, strings.Join(missing, ", "))
		}
	}
	for _, s := range Registry().All() {
		for _, board := range platform.Names() {
			id := s.Spec().ID + "/" + board
			if runs[id+"/"+scenario.SizePaper.String()] {
				assert.True(t, runs[id+"/"+scenario.SizeLesson.String()], "%s runs at its defaults but not at its lesson size", id)
			}
		}
	}
	got := matrixDoc(cells)
	if *update {
		require.NoError(t, writeSection(boardsDoc, boardsHeading, got))
	}
	doc, err := os.ReadFile(boardsDoc)
	require.NoError(t, err)
	want, ok := section(string(doc), boardsHeading)
	require.True(t, ok, "%s has no %q section", boardsDoc, boardsHeading)
	assert.Equal(t, want, got, "%s is stale: go test ./model/catalog -run BoardMatrix -update", boardsDoc)
}

func mustSpec(t *testing.T, id string) *scenario.Spec {
	spec := registrySpec(id)
	require.NotNil(t, spec, id)
	return spec
}

// registrySpec is the spec of the scenario with the id (nil if none).
func registrySpec(id string) *scenario.Spec {
	s, err := Registry().Get(id)
	if err != nil {
		return nil
	}
	return s.Spec()
}

// matrixDoc is the section: the table (runs / refuses at each size) and
// each distinct refusal in full.
func matrixDoc(cells []cell) string {
	boards := platform.Names()
	var b strings.Builder
	b.WriteString(boardsHeading + "\n\n")
	b.WriteString("Written by `go test ./model/catalog -run BoardMatrix -update`; the test fails when this section and the model disagree. " +
		"Each scenario runs on each built-in board at its defaults (paper) and at its lesson size (`size=lesson`), or refuses " +
		"with the reason below. A figure on a board other than the scenario's default preset is a prediction, never a calibration.\n\n")
	b.WriteString("| scenario | " + strings.Join(boards, " | ") + " |\n|---|" + strings.Repeat("---|", len(boards)) + "\n")
	var reasons []string
	seen := map[string]int{}
	byKey := map[string]cell{}
	var ids []string
	for _, c := range cells {
		byKey[c.scenario+"/"+c.board+"/"+c.size.String()] = c
		if len(ids) == 0 || ids[len(ids)-1] != c.scenario {
			ids = append(ids, c.scenario)
		}
	}
	for _, id := range ids {
		row := []string{id}
		for _, board := range boards {
			var parts []string
			for _, size := range []scenario.Size{scenario.SizePaper, scenario.SizeLesson} {
				c := byKey[id+"/"+board+"/"+size.String()]
				word := "runs"
				if c.err != nil {
					msg := c.err.Error()
					n, ok := seen[msg]
					if !ok {
						reasons = append(reasons, msg)
						n = len(reasons)
						seen[msg] = n
					}
					word = fmt.Sprintf("refuses [%d]", n)
				}
				parts = append(parts, word)
			}
			word := parts[0]
			if parts[0] != parts[1] {
				word = "paper " + parts[0] + ", lesson " + parts[1]
			}
			if unit, ok := traceScenarios[id]; ok && strings.Contains(word, "runs") {
				if has, _ := platform.TraceUnit(board, unit); !has {
					word += " (what-if: no " + unit + ")"
				}
			}
			row = append(row, word)
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	b.WriteString("\nA what-if runs a trace unit the board's core does not have through that core's TLBs, and its narration says so:\n\n")
	for _, p := range platform.Presets() {
		fmt.Fprintf(&b, "- %s: %s.\n", p.Name, p.TraceSource)
	}
	for _, id := range ids {
		if spec := registrySpec(id); !spec.OnBoard {
			var offers []string
			for _, c := range spec.Param("preset").Choices {
				offers = append(offers, c.Value)
			}
			fmt.Fprintf(&b, "\n%s is no board model: its costs are set by hand, uncalibrated, for the presets its preset parameter offers (%s); "+
				"etr runs the same device-writes, CPU-copies mechanism on every board's model.\n", id, strings.Join(offers, ", "))
		}
	}
	if len(reasons) > 0 {
		b.WriteString("\nRefusals:\n\n")
		for i, r := range reasons {
			fmt.Fprintf(&b, "%d. %s\n", i+1, r)
		}
	}
	return b.String()
}

// section returns the text of doc from the heading line to the next
// heading of the same level (or the end).
func section(doc, heading string) (string, bool) {
	i := strings.Index(doc, heading+"\n")
	if i < 0 {
		return "", false
	}
	rest := doc[i:]
	if j := strings.Index(rest[len(heading):], "\n## "); j >= 0 {
		return rest[:len(heading)+j+1], true
	}
	return rest, true
}

// writeSection replaces the heading's section of the file at path with
// text (appending it when absent; creating the file when missing).
func writeSection(path, heading, text string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	doc := string(old)
	if cur, ok := section(doc, heading); ok {
		doc = strings.Replace(doc, cur, text, 1)
	} else {
		if doc == "" {
			doc = "# Boards\n\n"
		} else if !strings.HasSuffix(doc, "\n\n") {
			doc += "\n"
		}
		doc += text
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}
