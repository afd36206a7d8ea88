//go:build e2e

package e2e

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// dist/ must work from any static host and from a sub-path: serve it with
// a plain file server under /docs/dmaviz/ (no gzip, no special headers).
func TestSiteWorksFromASubPathOnAPlainStaticHost(t *testing.T) {
	dist, _ := filepath.Abs("../dist")
	mux := http.NewServeMux()
	mux.Handle("/docs/dmaviz/", http.StripPrefix("/docs/dmaviz/", http.FileServer(http.Dir(dist))))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b := newBrowser(t)
	b.do(t, "opening the page under a sub-path", chromedp.Navigate(srv.URL+"/docs/dmaviz/?scenario=demo"))
	b.waitFor(t, "panel, stage and results", `window.dmaviz && dmaviz.panelReadyAt > 0 && dmaviz.stageReadyAt > 0 && document.querySelectorAll("#metrics tbody tr").length > 0`)
	outside := eval[[]string](t, b, `performance.getEntriesByType("resource").map(e => e.name).filter(n => !n.startsWith(location.origin + "/docs/dmaviz/"))`)
	assert.Empty(t, outside, "resources loaded from outside the sub-path")
	assert.Contains(t, eval[string](t, b, `document.getElementById("embed-code").value`), srv.URL+"/docs/dmaviz/", "embed code does not point at the sub-path")
	assert.Empty(t, b.consoleErrors(), "console errors")
}
