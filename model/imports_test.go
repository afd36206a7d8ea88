package model

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/dmaviz/dmaviz/"

// Every non-test Go file under model/ imports only the standard library or
// other model packages: never render, site, wasm, cmd or a third-party
// module (DESIGN.md: "the model knows nothing about drawing").
func TestModelImportsOnlyStandardLibrary(t *testing.T) {
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			first := strings.SplitN(p, "/", 2)[0]
			switch {
			case strings.HasPrefix(p, module+"model/") || p == module+"model":
			case !strings.Contains(first, "."):
				// standard library
			default:
				assert.Fail(t, fmt.Sprintf("%s imports %s: model/ may import only the standard library and model packages", path, p))
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.False(t, files < 10, "only %d files checked; is the test running in model/?", files)
}

// hardware are the packages below the scenario layer (DESIGN.md: "Hardware
// packages never import scenario or anything above").
var hardware = []string{"sim", "mem", "cache", "hwevent", "soc", "mmu", "smmu", "device"}

// The hardware packages import only the standard library and each other
// (and bytesize, how sizes print): never model/scenario, dmaapi, platform
// or a scenario package. They report hardware events; the scenario layer
// decides what a view shows.
func TestHardwareImportsNoScenario(t *testing.T) {
	isHW := map[string]bool{module + "model/bytesize": true}
	for _, h := range hardware {
		isHW[module+"model/"+h] = true
	}
	checked := 0
	for _, h := range hardware {
		err := filepath.WalkDir(h, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			checked++
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				assert.False(t, strings.HasPrefix(p, module) && !isHW[p], "%s imports %s: hardware packages may import only the standard library and other hardware packages", path, p)
			}
			return nil
		})
		require.False(t, err != nil && !os.IsNotExist(err), fmt.Sprint(err))
	}
	require.False(t, checked < 20, "only %d hardware files checked", checked)
}
