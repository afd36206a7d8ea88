package firstview

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
)

func TestRenderTry(t *testing.T) {
	v, err := Render(catalog.Registry(), "", 1100, 900)
	require.NoError(t, err)
	os.WriteFile("/tmp/fv.html", v.Panel, 0o644)
	os.WriteFile("/tmp/fv.svg", v.SVG, 0o644)
	t.Log(v.Query, v.Cursor, len(v.SVG), len(v.Panel), len(v.Results))
}
