package site

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/site/control"
)

func TestRunProgressTextSaysWhatTheStageShows(t *testing.T) {
	r := control.RunState{Running: true, Side: 1, Sides: [2]bool{true, true}, Done: 0.5, Elapsed: 1500 * time.Millisecond}
	assert.Equal(t, "Computing B (2 of 2): 50 % after 1.5 s. The stage shows the previous results until this run ends.", RunProgressText(r))
	r.First = true
	assert.Equal(t, "Computing B (2 of 2): 50 % after 1.5 s. The stage fills in when this run ends.", RunProgressText(r))
	r.First, r.Sides = false, [2]bool{false, true}
	assert.Equal(t, "Computing B: 50 % after 1.5 s. The stage shows the previous results until this run ends.", RunProgressText(r), "B alone")
}

func TestEmbedNoticeIsOneShortLine(t *testing.T) {
	assert.Empty(t, EmbedNotice(nil))
	assert.Equal(t, "⚠ buffer: \"zzz\" is not a size", EmbedNotice([]string{`buffer: "zzz" is not a size`}))
	long := "buffer: " + strings.Repeat("x", 200)
	got := EmbedNotice([]string{long, "a: policy", "b: policy"})
	assert.Equal(t, "⚠ "+long[:48]+"… (+2 more)", got)
}
