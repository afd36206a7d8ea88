package catalog

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// provComment is a provenance comment in the form hardware values carried
// before the tables: "// measured: …", "// derived: …", "// assumed [lo,
// hi] …" or "{a, b}", "// fitted to …".
var provComment = regexp.MustCompile(`//\s*(measured:|derived:|assumed\s*[\[{]|fitted to\b)`)

// A parameter's provenance is written once, in its table (model/platform
// prov_*.go, a scenario's Spec.Constants): no model source carries it a
// second time as a comment beside the value, where it would drift from
// what preset show, the panel and the verdicts read.
func TestProvenanceIsWrittenOnlyInTheTables(t *testing.T) {
	var found []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if provComment.MatchString(sc.Text()) {
				found = append(found, path+":"+strconv.Itoa(n)+": "+strings.TrimSpace(sc.Text()))
			}
		}
		return sc.Err()
	})
	require.NoError(t, err)
	assert.Empty(t, found, "provenance written as a comment: move it into the preset's table (model/platform prov_*.go) or the scenario's Spec.Constants")
}
