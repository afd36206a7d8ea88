// Package e2e holds dmaviz's real-browser tests. They run against the built
// site in ../dist with Debian's chromium, driven by chromedp, and are behind
// the build tag e2e so `go test ./...` stays native and fast:
//
//	make site && go test -tags e2e ./e2e/
//
// Set DMAVIZ_CHROMIUM to use another browser binary.
package e2e
