//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allowDownloads saves the browser's downloads in dir.
func allowDownloads(t *testing.T, b *browser, dir string) {
	t.Helper()
	b.do(t, "allowing downloads", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir})
		return err
	}))
}

// waitDownload waits for a finished download named name in dir that
// complete accepts.
func waitDownload(t *testing.T, dir, name string, complete func([]byte) bool) []byte {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil && complete(data) {
			return data
		}
		time.Sleep(100 * time.Millisecond)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Failf(t, "no complete download", "%s in %s (found %v)", name, dir, names)
	return nil
}

// Export figure downloads the stage at the cursor as an SVG equal byte for
// byte to `dmaviz export` of the page's URL at the stage's size, and a PNG
// of it at twice that size.
func TestExportFigureEqualsTheCLI(t *testing.T) {
	b := newBrowser(t)
	dir := t.TempDir()
	allowDownloads(t, b, dir)
	openReady(t, b, "?scenario=smmu-bypass&t=0")
	b.do(t, "stepping two narration steps", chromedp.Click(chromedp.ID("btn-next-step")), chromedp.Click(chromedp.ID("btn-next-step")))
	b.waitFor(t, "the cursor in the URL", `new URLSearchParams(location.search).get("t") !== null`)
	b.waitFor(t, "the export button", `!document.getElementById("export-figure").disabled`)
	b.do(t, "clicking Export figure", chromedp.Click(chromedp.ID("export-figure")))
	b.waitFor(t, "the saved message", `document.getElementById("export-status").textContent.startsWith("saved the figure")`)
	t.Log(eval[string](t, b, `document.getElementById("export-status").textContent`))

	search := eval[string](t, b, `location.search`)
	q, err := url.ParseQuery(search[1:])
	require.NoError(t, err)
	at := q.Get("t")
	size := eval[[]int](t, b, `[innerWidth - Math.ceil(document.getElementById("panel-mount").getBoundingClientRect().width), innerHeight]`)
	var cli, errs bytes.Buffer
	cmd := exec.Command(dmavizBin, "export", "--url", search, "--at", at, "--size", fmt.Sprintf("%dx%d", size[0], size[1]), "--svg", "-")
	cmd.Stdout, cmd.Stderr = &cli, &errs
	require.NoError(t, cmd.Run(), errs.String())

	base := "dmaviz-smmu-bypass-" + q.Get("a") + "-vs-" + q.Get("b") + "-at-" + at
	if q.Get("a") == "" {
		base = eval[string](t, b, `(s => s.slice(s.indexOf("dmaviz-"), s.indexOf(".svg")))(document.getElementById("export-status").textContent)`)
	}
	svg := waitDownload(t, dir, base+".svg", func(d []byte) bool { return bytes.HasSuffix(bytes.TrimSpace(d), []byte("</svg>")) })
	assert.True(t, bytes.Equal(cli.Bytes(), svg), "the downloaded SVG (%d bytes) is not `dmaviz export --url %s --at %s --size %dx%d` (%d bytes)", len(svg), search, at, size[0], size[1], cli.Len())
	pngData := waitDownload(t, dir, base+".png", func(d []byte) bool { _, err := png.Decode(bytes.NewReader(d)); return err == nil })
	img, err := png.Decode(bytes.NewReader(pngData))
	require.NoError(t, err)
	assert.Equal(t, 2*size[0], img.Bounds().Dx(), "PNG width")
	assert.Equal(t, 2*size[1], img.Bounds().Dy(), "PNG height")
	shot := img.Bounds()
	assert.Greater(t, shot.Dx()*shot.Dy()/4, countNear(img, shot, rgb{0, 0, 0}, 2), "the PNG is mostly black: not drawn")
	assert.Empty(t, b.consoleErrors(), "console errors")
}
