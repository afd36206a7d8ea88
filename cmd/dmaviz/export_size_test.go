package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A figure for a document stays under 500 KB: large buffers aggregate more
// cells per square and sub-pixel phases share a pixel. Without a time, the
// export shows the finished runs, not the empty start.
func TestExportedFiguresStaySmallAndDefaultToTheEnd(t *testing.T) {
	for _, args := range [][]string{
		{"sg-sync"},
		{"sg-sync", "--b", "skip-unmap"},
		{"etr", "--b", "cached-no-sync", "--param", "buffer=1MiB"},
	} {
		code, out, errs := call(t, append(append([]string{"export"}, args...), "--svg", "-")...)
		require.Equal(t, 0, code, errs)
		assert.Less(t, len(out), 500_000, "%v: %d bytes", args, len(out))
		assert.Contains(t, out, ` stroke="none"`, "the root sets stroke=none, or ImageMagick strokes text")
		assert.NotContains(t, out, ">0ps<", "%v: the default figure is the start of the run", args)
	}
}
