package lesson

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// The DMA lesson visits demo, etr, sg-sync, trbe-aux and smmu-bypass in
// that order; each stop names a scenario and a pair that exist, and says
// something in every field.
func TestDMAPathStops(t *testing.T) {
	p, err := Get("dma")
	require.NoError(t, err)
	want := []string{"demo", "etr", "sg-sync", "trbe-aux", "smmu-bypass"}
	var got []string
	reg := catalog.Registry()
	for i, st := range p.Stops {
		got = append(got, st.Scenario)
		s, err := reg.Get(st.Scenario)
		require.NoError(t, err, "stop %d", i+1)
		spec := s.Spec()
		for _, pol := range []string{st.A, st.B} {
			_, err := spec.Policy(pol)
			assert.NoError(t, err, "stop %d", i+1)
		}
		for name, text := range map[string]string{"Title": st.Title, "Question": st.Question, "Answer": st.Answer,
			"Watch": st.Watch, "Point": st.Note.Point, "Quote": st.Note.Quote, "Misconception": st.Note.Misconception} {
			assert.NotEmpty(t, strings.TrimSpace(text), "stop %d %s", i+1, name)
		}
		assert.NotEmpty(t, st.Figures, "stop %d quotes no figure", i+1)
	}
	assert.Equal(t, want, got)
	assert.Equal(t, map[string]int{"dma": 5}, Sizes())
	_, err = Get("nope")
	assert.EqualError(t, err, `lesson: "nope" is not allowed; allowed dma`)
}

// Every figure a stop quotes is the model's: each stop runs at its
// scenario's lesson size (or the paper size where the figure says so),
// and each declared figure prints as the stop prints it and appears in
// the stop's words. A model change that moves a figure fails here, with
// the new value to write.
func TestFiguresMatchTheModel(t *testing.T) {
	reg := catalog.Registry()
	for _, p := range Paths() {
		for i, st := range p.Stops {
			t.Run(fmt.Sprintf("%s/%d-%s", p.ID, i+1, st.Scenario), func(t *testing.T) {
				s, err := reg.Get(st.Scenario)
				require.NoError(t, err)
				r := runs{s: s, stop: st, got: map[string][2]*scenario.Result{}}
				words := strings.Join([]string{st.Answer, st.Note.Point, st.Note.Quote, st.Note.Misconception}, "\n")
				for _, f := range st.Figures {
					assert.Contains(t, words, f.Text, "declared figure %s is not in the stop's words", f.Text)
					v, err := r.value(t.Context(), f)
					require.NoError(t, err, "%+v", f)
					assert.NoError(t, matches(f.Text, v), "%s %s (policy %q side %c ratio %q paper %v)", st.Scenario, f.Metric, f.Policy, f.Side, f.Ratio, f.Paper)
				}
			})
		}
	}
}

// runs runs a stop's settings once each.
type runs struct {
	s    scenario.Scenario
	stop Stop
	got  map[string][2]*scenario.Result
}

func (r *runs) pair(ctx context.Context, size scenario.Size, a, b string) ([2]*scenario.Result, error) {
	key := fmt.Sprint(size, a, b)
	if res, ok := r.got[key]; ok {
		return res, nil
	}
	p, err := r.s.Spec().SizeParams(size)
	if err != nil {
		return [2]*scenario.Result{}, err
	}
	ra, rb, err := scenario.RunPair(ctx, r.s, p, a, b, nil, nil)
	r.got[key] = [2]*scenario.Result{ra, rb}
	return r.got[key], err
}

func (r *runs) value(ctx context.Context, f Figure) (float64, error) {
	size := scenario.SizeLesson
	if f.Paper {
		size = scenario.SizePaper
	}
	b := r.stop.B
	if f.Policy != "" {
		b = f.Policy
	}
	res, err := r.pair(ctx, size, r.stop.A, b)
	if err != nil {
		return 0, err
	}
	get := func(side int) (float64, error) {
		v, ok := res[side].Metric(f.Metric)
		if !ok {
			return 0, fmt.Errorf("%s reports no metric %s", res[side].Policy, f.Metric)
		}
		return v, nil
	}
	va, err := get(0)
	if err != nil {
		return 0, err
	}
	vb, err := get(1)
	if err != nil {
		return 0, err
	}
	return f.value(va, vb)
}

// matches reports whether v, rounded to text's decimals, prints as text
// (thousands separators aside).
func matches(text string, v float64) error {
	plain := strings.ReplaceAll(text, ",", "")
	if !printsOneOf(plain, []float64{v}) {
		return fmt.Errorf("the model gives %v, the stop says %s", v, text)
	}
	return nil
}

func TestMatches(t *testing.T) {
	assert.NoError(t, matches("4,096", 4096))
	assert.NoError(t, matches("0.256", 0.2561))
	assert.Error(t, matches("0.256", 0.2566))
	assert.Error(t, matches("13.1", 13.2))
	assert.NoError(t, matches("2.5", 2.504))
}

var update = flag.Bool("update", false, "write docs/LESSON.md from the lesson data")

// docs/LESSON.md is the DMA path's Markdown: the docs quote what the page
// shows (go test ./lesson -update writes it).
func TestLessonDocIsCurrent(t *testing.T) {
	p, err := Get("dma")
	require.NoError(t, err)
	path := filepath.Join("..", "docs", "LESSON.md")
	want := p.Markdown()
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err, "go test ./lesson -update writes it")
	assert.Equal(t, want, string(got), "docs/LESSON.md is stale: go test ./lesson -update")
	for _, s := range p.Stops {
		assert.FileExists(t, filepath.Join("..", "docs", "screens", "lesson-"+s.Scenario+".png"))
	}
}
