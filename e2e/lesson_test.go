//go:build e2e

package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/model/catalog"
)

// In the page, as with the CLI: a link naming a scenario and a bug policy
// and no parameter opens at the lesson size, where the bug reads stale
// data or loses it; at the paper size a bug that does not bite says why
// instead of "No hazards".
func TestLessonSizeCatchesEveryBugInThePage(t *testing.T) {
	b := newBrowser(t)
	for _, s := range catalog.Registry().All() {
		spec := s.Spec()
		for _, pol := range spec.Policies {
			if !pol.Bug {
				continue
			}
			openReady(t, b, "?scenario="+spec.ID+"&b="+pol.ID)
			assert.Contains(t, eval[string](t, b, `location.search`), "size=lesson", "%s %s", spec.ID, pol.ID)
			lost := metricCell(t, b, "stale_bytes", "b") + metricCell(t, b, "lost_bytes", "b")
			assert.Positive(t, lost, "%s %s at the lesson size: no stale or lost bytes in the page", spec.ID, pol.ID)
		}
	}
	openReady(t, b, "?scenario=etr&size=paper&b=cached-no-sync")
	b.waitFor(t, "the hazard list", `document.getElementById("hazards").textContent.includes("shows no hazard at this setting")`)
	assert.Contains(t, eval[string](t, b, `document.getElementById("hazards").textContent`), "evicted all 16,384 stale copies")
}
