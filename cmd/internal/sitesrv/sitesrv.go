// Package sitesrv serves dmaviz's built static site (dist/) on loopback: the
// right MIME type for .wasm and a precompressed main.wasm.br or main.wasm.gz
// for clients that accept Brotli or gzip. Used by `dmaviz serve`, the
// benchmark report and the screenshot command.
package sitesrv

import (
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Listen checks that dir holds a built site, opens addr and returns the
// listener with the site's handler. Errors say what to do about them.
func Listen(dir, addr string) (net.Listener, http.Handler, error) {
	for _, f := range []string{"index.html", "main.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return nil, nil, fmt.Errorf("%s has no %s: build the site first with `make site` (or `make serve`)", dir, f)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, nil, fmt.Errorf("address %s is already in use: stop the other server or pick another with ADDR=127.0.0.1:9000 (make serve) or -addr", addr)
		}
		return nil, nil, fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	return ln, Handler(dir), nil
}

// Start serves the built site in dir on a free loopback port and returns
// its address (http://127.0.0.1:port/) and a function that stops it.
func Start(dir string) (string, func(), error) {
	ln, h, err := Listen(dir, "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/", func() { srv.Close() }, nil
}

// encodings are the precompressed copies sitebuild writes, best first.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// Handler serves the static site. It names the wasm MIME type (needed by
// WebAssembly.instantiateStreaming and some hosts get wrong) and sends a
// precompressed name.br when the client accepts Brotli, else name.gz when it
// accepts gzip, else the file itself; every .wasm response says Vary:
// Accept-Encoding, so a cache in between keeps the variants apart.
func Handler(dir string) http.Handler {
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-cache")
		p := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(p, ".wasm") {
			w.Header().Add("Vary", "Accept-Encoding")
			for _, enc := range encodings {
				if !accepts(r, enc.name) {
					continue
				}
				f, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)+enc.ext))
				if err != nil {
					continue
				}
				defer f.Close()
				if st, err := f.Stat(); err == nil && !st.IsDir() {
					w.Header().Set("Content-Type", "application/wasm")
					w.Header().Set("Content-Encoding", enc.name)
					http.ServeContent(w, r, p, st.ModTime(), f)
					return
				}
			}
		}
		files.ServeHTTP(w, r)
	})
}

// accepts reports whether the request's Accept-Encoding allows coding (by
// name or by "*", with a q value above 0).
func accepts(r *http.Request, coding string) bool {
	star := false
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		enc = strings.TrimSpace(enc)
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				q = f
			}
		}
		switch {
		case strings.EqualFold(enc, coding):
			return q > 0
		case enc == "*":
			star = q > 0
		}
	}
	return star
}
