package site

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

func TestHeadlineCaptionAndPicture(t *testing.T) {
	ch := &scenario.Chart{ID: "h", XLabel: "buffer (B)", YLabel: "t_us", Mark: 4,
		Series:    []scenario.Series{{Name: "A", Points: []timeline.Point{{X: 1, Y: 1}, {X: 8, Y: 2}}}},
		Published: []scenario.ChartRef{{X: 4, Y: 2}}}
	h := &Headline{Chart: ch}
	assert.True(t, h.show())
	assert.Equal(t, "t_us against buffer (B), A and B; squares are the published figures; the line marks the current setting", h.caption())
	url := h.dataURL()
	assert.True(t, strings.HasPrefix(url, "data:image/svg+xml;base64,"))
	assert.Equal(t, url, h.dataURL(), "drawn once")

	moved := *ch
	moved.Mark = 16
	h.Chart = &moved
	assert.Contains(t, h.caption(), "outside the range the page computes")
	assert.NotEqual(t, url, h.dataURL(), "a moved marker is redrawn")

	assert.False(t, (&Headline{}).show())
	assert.Contains(t, (&Headline{Running: true}).caption(), "computing")
	assert.Contains(t, (&Headline{Err: "boom"}).caption(), "could not be computed: boom")

	three := &scenario.Chart{ID: "h3", XLabel: "fragmentation", YLabel: "refills",
		Series: []scenario.Series{{Name: "A"}, {Name: "B"}, {Name: "prefer-large-4k-vmap"}}}
	assert.Equal(t, "refills against fragmentation, A, B and prefer-large-4k-vmap", (&Headline{Chart: three}).caption())
}
