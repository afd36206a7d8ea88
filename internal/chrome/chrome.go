//go:build !js

// Package chrome finds Debian's Chromium and starts it headless with the
// flags dmaviz's browser tests and benchmarks use (DESIGN.md): WebGL2 through
// SwiftShader, no sandbox (tests run as root), no network beyond loopback.
package chrome

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// ErrMissing says how to get a browser.
var ErrMissing = errors.New("the browser tests need Chromium: install the Debian package `chromium` (apt-get install chromium) or set DMAVIZ_CHROMIUM to a Chromium binary")

// Find returns the Chromium binary: $DMAVIZ_CHROMIUM, else chromium or
// chromium-browser on PATH.
func Find() (string, error) {
	if p := os.Getenv("DMAVIZ_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, c := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(c); err == nil {
			return p, nil
		}
	}
	return "", ErrMissing
}

// Options are the allocator options for a headless run with a fresh
// profile in userDataDir.
func Options(bin, userDataDir string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(userDataDir),
		chromedp.Flag("use-gl", "angle"),
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
	}
}

// Start launches a browser and returns a context for one tab and a function
// that closes both.
func Start(bin, userDataDir string, extra ...chromedp.ExecAllocatorOption) (context.Context, func()) {
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), append(Options(bin, userDataDir), extra...)...)
	ctx, cancel := chromedp.NewContext(actx)
	return ctx, func() { cancel(); cancelA() }
}

// Fresh starts a browser with an empty profile (nothing cached, no compiled
// code kept) and a w x h viewport; stop closes it and removes the profile.
func Fresh(bin string, w, h int64) (ctx context.Context, stop func(), err error) {
	prof, err := os.MkdirTemp("", "dmaviz-chrome")
	if err != nil {
		return nil, nil, err
	}
	ctx, closeBrowser := Start(bin, prof)
	stop = func() { closeBrowser(); os.RemoveAll(prof) }
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h)); err != nil {
		stop()
		return nil, nil, fmt.Errorf("starting chromium: %w", err)
	}
	return ctx, stop, nil
}
