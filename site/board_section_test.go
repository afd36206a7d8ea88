package site

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/site/app"
)

func renderStatic(t *testing.T, c vugu.Builder) string {
	t.Helper()
	env, err := vugu.NewBuildEnv()
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, staticrender.New(&out).Render(env.RunBuild(c)))
	return out.String()
}

// Closed, the section is one line (the first view shows it so); open, it
// has a field per value of the board, the user's marked with a reset, a
// refused one with its message, and a reset of all.
func TestBoardSectionOpensToEveryField(t *testing.T) {
	a := app.New(catalog.Registry(), "?scenario=etr")
	a.Hardware.Params = platform.Parameters
	ps, err := platform.Parameters("juno-r2")
	require.NoError(t, err)
	c := &BoardSection{App: a}
	closed := renderStatic(t, c)
	assert.Contains(t, closed, "▸ Board: juno-r2 · "+BoardSummary(false, "juno-r2", ps, 0)[len("▸ Board: juno-r2 · "):])
	assert.NotContains(t, closed, "<input", "the closed section lists nothing")

	require.True(t, a.SetBoard("l2.size", "2MiB"))
	require.False(t, a.SetBoard("l2.ways", "many"))
	c.Open = true
	open := renderStatic(t, c)
	assert.Equal(t, len(ps), strings.Count(open, `id="hw-`)-strings.Count(open, `id="hw-reset-`), "an input per preset parameter")
	assert.Contains(t, open, "▾ Board: juno-r2 · ")
	assert.Contains(t, open, " · 1 yours")
	assert.Contains(t, open, `id="hw-reset-l2.size"`)
	assert.Equal(t, 1, strings.Count(open, `id="hw-reset-`), "a reset for the user's value only")
	assert.Contains(t, open, `id="board-reset-all"`)
	assert.Contains(t, open, `hw.l2.ways: &#34;many&#34; is not a number`)
	assert.Contains(t, open, `<h3>L2 cache</h3>`)
	assert.Contains(t, open, `class="board-field measured own" data-path="l2.size"`)
}

func TestBoardFieldDetail(t *testing.T) {
	a := app.New(catalog.Registry(), "?scenario=etr")
	a.Hardware.Params = platform.Parameters
	require.True(t, a.SetBoard("l2.latency", "20"))
	for _, g := range a.BoardGroups() {
		for _, f := range g.Fields {
			switch f.Param.Path {
			case "l2.latency":
				assert.Equal(t, "in cycles · preset 15 cycles · range [12, 21] cycles: no A53 L2 latency measurement found", BoardFieldDetail(f))
				assert.Equal(t, "assumed: range [12, 21] cycles: no A53 L2 latency measurement found", BoardFieldTitle(f))
			case "etr.width":
				assert.True(t, strings.HasPrefix(BoardFieldDetail(f), "in bytes · fixed by the scenario · "), BoardFieldDetail(f))
			}
		}
	}
}
