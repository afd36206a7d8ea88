package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The native commands import neither the page's packages (site/) nor the
// browser tests (e2e/): what they share with those lives beside them, the
// URL codec in urlstate/ and the Chromium launcher in internal/chrome.
func TestCommandsImportNoPageOrBrowserTests(t *testing.T) {
	const module = "github.com/dmaviz/dmaviz/"
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, banned := range []string{"site", "e2e"} {
				if p == module+banned || strings.HasPrefix(p, module+banned+"/") {
					assert.Fail(t, path+" imports "+p, "cmd/ may not import %s/", banned)
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.GreaterOrEqual(t, files, 10, "only %d files checked; is the test running in cmd/dmaviz?", files)
}
