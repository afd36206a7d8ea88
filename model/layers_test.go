package model

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// upper are the packages that show a run or name its settings (with their
// subpackages), from the module's root.
var upper = []string{"render", "play", "trace", "site", "urlstate"}

// seesNoHardware is what the packages that show a run must never reach:
// the adapter from hardware events to view states, and the hardware
// packages but sim (the typed simulated time the timeline is measured
// in).
func seesNoHardware() map[string]bool {
	out := map[string]bool{"model/hwview": true}
	for _, h := range hardware {
		if h != "sim" {
			out["model/"+h] = true
		}
	}
	return out
}

// The views, the player, the trace writer and the panel depend on the
// scenario contract and the timeline only: nothing their non-test files
// import, directly or through other packages of the module, is the
// adapter (model/hwview) or a hardware package. So the contract and the
// timeline reach no hardware either: the adapter is the only one of the
// three that does.
func TestUpperLayersSeeNoHardware(t *testing.T) {
	bad := seesNoHardware()
	deps := moduleImports{}
	checked := 0
	for _, top := range upper {
		err := filepath.WalkDir(filepath.Join("..", top), func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			pkg := filepath.ToSlash(strings.TrimPrefix(path, ".."+string(filepath.Separator)))
			if !hasGo(path) {
				return nil
			}
			checked++
			if chain := deps.reach(t, pkg, bad); chain != nil {
				assert.Fail(t, strings.Join(chain, " imports ")+
					": render, play, trace, site and urlstate may depend on the scenario contract and the timeline only, never on model/hwview or a hardware package")
			}
			return nil
		})
		require.NoError(t, err)
	}
	require.GreaterOrEqual(t, checked, 6, "only %d packages checked; is the test running in model/?", checked)
	for _, pkg := range []string{"model/scenario", "model/timeline"} {
		assert.Nil(t, deps.reach(t, pkg, bad), "%s reaches the hardware", pkg)
	}
	assert.NotNil(t, deps.reach(t, "model/hwview", map[string]bool{"model/soc": true}), "the check sees the adapter's imports")
}

// moduleImports caches each package's module-internal imports (paths
// from the module's root) of its non-test files.
type moduleImports map[string][]string

func (m moduleImports) of(t *testing.T, pkg string) []string {
	if deps, ok := m[pkg]; ok {
		return deps
	}
	var deps []string
	files, err := filepath.Glob(filepath.Join("..", filepath.FromSlash(pkg), "*.go"))
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(p, module); ok && !slices.Contains(deps, rest) {
				deps = append(deps, rest)
			}
		}
	}
	m[pkg] = deps
	return deps
}

// reach returns the import chain from pkg to the first package in bad it
// depends on (pkg itself included), or nil.
func (m moduleImports) reach(t *testing.T, pkg string, bad map[string]bool) []string {
	seen := map[string]bool{}
	var walk func(p string) []string
	walk = func(p string) []string {
		if bad[p] {
			return []string{p}
		}
		if seen[p] {
			return nil
		}
		seen[p] = true
		for _, d := range m.of(t, p) {
			if chain := walk(d); chain != nil {
				return append([]string{p}, chain...)
			}
		}
		return nil
	}
	return walk(pkg)
}

func hasGo(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(files) > 0
}

// The native commands reach neither the page's packages (site/) nor the
// browser tests (e2e/): what they share with those lives beside them, the
// URL codec in urlstate/ and the Chromium launcher in internal/chrome. The
// site builder alone reaches site/: it pre-renders the page's panel
// (site/firstview).
func TestCommandsReachNoPageOrBrowserTests(t *testing.T) {
	bad, browser := map[string]bool{}, map[string]bool{}
	for _, top := range []string{"site", "e2e"} {
		err := filepath.WalkDir(filepath.Join("..", top), func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				p := filepath.ToSlash(strings.TrimPrefix(path, ".."+string(filepath.Separator)))
				bad[p], browser[p] = true, top == "e2e"
			}
			return err
		})
		require.NoError(t, err)
	}
	require.True(t, bad["site/app"] && bad["e2e"], "the page's and the browser tests' packages are listed")
	deps := moduleImports{}
	checked := 0
	err := filepath.WalkDir(filepath.Join("..", "cmd"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || !hasGo(path) {
			return err
		}
		checked++
		pkg := filepath.ToSlash(strings.TrimPrefix(path, ".."+string(filepath.Separator)))
		forbidden := bad
		if pkg == "cmd/sitebuild" {
			forbidden = browser
		}
		if chain := deps.reach(t, pkg, forbidden); chain != nil {
			assert.Fail(t, strings.Join(chain, " imports ")+": a command may not depend on site/ or e2e/")
		}
		return nil
	})
	require.NoError(t, err)
	require.GreaterOrEqual(t, checked, 5, "only %d commands checked; is the test running in model/?", checked)
}
