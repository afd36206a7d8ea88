//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/internal/chrome"
)

var (
	siteURL   string // http://127.0.0.1:port/ of the real dmaviz server
	chromeBin string
	dmavizBin string // the dmaviz CLI the server runs
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	if chromeBin, err = chrome.Find(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	dist, _ := filepath.Abs("../dist")
	if _, err := os.Stat(filepath.Join(dist, "main.wasm")); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: ../dist/main.wasm is missing: run `make site` first")
		return 1
	}
	tmp, err := os.MkdirTemp("", "dmaviz-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "dmaviz")
	dmavizBin = bin
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/dmaviz").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building dmaviz: %v\n%s", err, out)
		return 1
	}
	srv := exec.Command(bin, "serve", "-dir", dist, "-addr", "127.0.0.1:0")
	stdout, _ := srv.StdoutPipe()
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: starting server:", err)
		return 1
	}
	defer srv.Process.Kill()
	re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if u := re.FindString(sc.Text()); u != "" {
			siteURL = u
			break
		}
	}
	if siteURL == "" {
		fmt.Fprintln(os.Stderr, "e2e: the server did not print its address")
		return 1
	}
	go func() {
		for sc.Scan() {
		}
	}()
	return m.Run()
}

// browser is one headless Chromium with one tab, recording the console.
type browser struct {
	ctx     context.Context
	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

func newBrowser(t testing.TB, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	ctx, stop := chrome.Start(chromeBin, t.TempDir(), extra...)
	t.Cleanup(stop)
	b := &browser{ctx: ctx}
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)), "starting chromium")
	// A first visit plays at once unless the reader asked for reduced
	// motion: the tests ask for it, so a page opens still, as they expect;
	// a test of playing on its own asks for motion (setMotion).
	b.setMotion(t, false)
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	}()
	return b
}

// setMotion emulates prefers-reduced-motion: no-preference (motion) or
// reduce (for the pages opened next).
func (b *browser) setMotion(t testing.TB, motion bool) {
	t.Helper()
	value := "reduce"
	if motion {
		value = "no-preference"
	}
	b.do(t, "emulating prefers-reduced-motion: "+value, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: value}}})
		return err
	}))
}

// do runs actions with a deadline.
func (b *browser) do(t testing.TB, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	err := chromedp.Do(ctx, actions...)
	// DevTools can drop the node ids it handed out for the document
	// while the panel redraws; a lone action that failed finding its node
	// did nothing yet, so it is tried again once.
	if err != nil && len(actions) == 1 && strings.Contains(err.Error(), "No node with given id") {
		err = chromedp.Do(ctx, actions...)
	}
	if err != nil { // the console text only on failure
		require.NoError(t, err, "%s\nconsole:\n%s", what, b.consoleText())
	}
}

// changeJS is JavaScript that sets the control id's value to value and
// sends its change event, in one evaluation: no DevTools node id is held
// between finding the control and setting it, so a panel that redraws
// meanwhile cannot make it stale.
func changeJS(id, value string) string {
	return `(e => { e.value = ` + jsString(value) + `; e.dispatchEvent(new Event("change", {bubbles: true})) })(document.getElementById(` + jsString(id) + `))`
}

// change sets a control's value and commits it as a user's change would.
func (b *browser) change(t testing.TB, what, id, value string) {
	t.Helper()
	b.do(t, what, chromedp.Evaluate[chromedp.Void](changeJS(id, value)))
}

// eval evaluates a JavaScript expression and decodes its value.
func eval[T any](t testing.TB, b *browser, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(t, err, "eval %s", expr)
	return v
}

// waitFor polls a JavaScript predicate until it is truthy.
func (b *browser) waitFor(t testing.TB, what, predicate string) {
	t.Helper()
	// An element the predicate reads may not exist yet (the panel renders
	// after the stage's first frame): that counts as not yet, not as an
	// error that would end the polling.
	safe := "(() => { try { return !!(" + predicate + "); } catch (e) { return false; } })()"
	b.do(t, "waiting for "+what, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Poll[chromedp.Void](safe, chromedp.WithPollingTimeout(45*time.Second))(ctx, tg)
		return err
	}))
}

func (b *browser) consoleText() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var sb strings.Builder
	for _, m := range b.console {
		sb.WriteString(m.String())
		sb.WriteByte('\n')
	}
	return sb.String()
}

// consoleErrors returns the console errors and uncaught exceptions so far.
func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.console {
		if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
			out = append(out, m.String())
		}
	}
	return out
}

// screenshot captures the viewport.
func (b *browser) screenshot(t testing.TB) image.Image {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err, "screenshot")
	img, err := png.Decode(bytes.NewReader(buf))
	require.NoError(t, err, "decoding screenshot")
	if dir := os.Getenv("DMAVIZ_SCREENSHOTS"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".png"), buf, 0o644)
	}
	return img
}

// rgb is a colour without alpha.
type rgb struct{ R, G, B uint8 }

func at(img image.Image, x, y int) rgb {
	r, g, bl, _ := img.At(x, y).RGBA()
	return rgb{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8)}
}

// countNear counts pixels in r within tol (per channel) of c.
func countNear(img image.Image, r image.Rectangle, c rgb, tol int) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := at(img, x, y)
			if absDiff(p.R, c.R) <= tol && absDiff(p.G, c.G) <= tol && absDiff(p.B, c.B) <= tol {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
