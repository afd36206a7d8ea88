package svg

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/render"
)

// What ImageMagick's and librsvg's renderers need to draw what Chromium
// does: the root sets stroke="none" (else ImageMagick outlines every text
// in black), and no <line> has children (ImageMagick drops such a line; a
// described line is a <g> holding the title and the line).
func TestFiguresRenderOutsideBrowsers(t *testing.T) {
	sc, _ := frameAt(t, demo.PolicyCacheableNoSync, 1, render.Zoom{})
	var b bytes.Buffer
	require.NoError(t, Write(&b, sc, Options{Titles: true}))
	out := b.String()
	assert.Regexp(t, `^<svg [^>]* stroke="none"`, out)
	assert.NotRegexp(t, regexp.MustCompile(`<line[^>]*[^/]>`), out, "a <line> with children")
	assert.Contains(t, out, "<g><title>", "described lines keep their titles")
}
