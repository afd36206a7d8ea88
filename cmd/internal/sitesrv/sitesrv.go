// Package sitesrv serves dmaviz's built static site (dist/): the right MIME
// type for .wasm and precompressed .br or .gz copies of main.wasm and the
// pre-rendered figures (.svg) for clients that accept Brotli or gzip. It is
// a static server and nothing more: it lists no directory, serves nothing outside its folder (a
// symbolic link that leads out is refused), answers only GET and HEAD, and
// sends the page's Content-Security-Policy as a header too. Used by
// `dmaviz serve`, the benchmark report and the screenshot command.
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
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// Listen checks that dir holds a built site, opens addr and returns the
// listener with the site's handler. addr must be a loopback address unless
// public is set. Errors say what to do about them.
func Listen(dir, addr string, public bool) (net.Listener, http.Handler, error) {
	for _, f := range []string{"index.html", "main.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return nil, nil, fmt.Errorf("%s has no %s: build the site first with `make site` (or `make serve`)", dir, f)
		}
	}
	if !public {
		if err := loopback(addr); err != nil {
			return nil, nil, err
		}
	}
	h, err := Handler(dir)
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, nil, fmt.Errorf("address %s is already in use: stop the other server or pick another with ADDR=127.0.0.1:9000 (make serve) or -addr", addr)
		}
		return nil, nil, fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	return ln, h, nil
}

// loopback refuses an address that other machines could reach: a host
// that is not a loopback IP or "localhost" (an empty host is every
// interface).
func loopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %v (want host:port, e.g. 127.0.0.1:8080)", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-addr %q is not a loopback address: other machines could reach it; use 127.0.0.1:port, or add -public to serve on it anyway", addr)
}

// Start serves the built site in dir on a free loopback port and returns
// its address (http://127.0.0.1:port/) and a function that stops it.
func Start(dir string) (string, func(), error) {
	ln, h, err := Listen(dir, "127.0.0.1:0", false)
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/", func() { srv.Close() }, nil
}

// encodings are the precompressed copies sitebuild writes, best first.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// DefaultCSP is the policy sent when the site's index.html names none.
const DefaultCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'"

var cspMeta = regexp.MustCompile(`(?i)<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"`)

// pageCSP is the Content-Security-Policy of dir's index.html (its <meta>
// tag), so that the header and the tag never disagree; DefaultCSP when it
// has none.
func pageCSP(root *os.Root) string {
	b, err := root.ReadFile("index.html")
	if err != nil {
		return DefaultCSP
	}
	if m := cspMeta.FindSubmatch(b); m != nil {
		return string(m[1])
	}
	return DefaultCSP
}

// Handler serves the static site in dir. It answers GET and HEAD only
// (405 otherwise); opens files through an os.Root, so neither ".." nor a
// symbolic link leads out of dir (404); serves a folder's index.html and
// never lists a folder (404); names the wasm MIME type (needed by
// WebAssembly.instantiateStreaming and some hosts get wrong) and sends a
// precompressed name.br when the client accepts Brotli, else name.gz when
// it accepts gzip, else the file itself; every .wasm response says Vary:
// Accept-Encoding, so a cache in between keeps the variants apart.
func Handler(dir string) (http.Handler, error) {
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot serve %s: %w", dir, err)
	}
	csp := pageCSP(root)
	files := http.FileServerFS(root.FS())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "405 method not allowed: this is a static site (GET and HEAD only)", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Security-Policy", csp)
		p := path.Clean("/" + r.URL.Path)
		name := strings.TrimPrefix(p, "/")
		if name == "" {
			name = "."
		}
		st, err := root.Stat(name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if st.IsDir() {
			if _, err := root.Stat(path.Join(name, "index.html")); err != nil {
				http.NotFound(w, r) // no listings
				return
			}
		}
		if ext := path.Ext(p); (ext == ".wasm" || ext == ".svg") && precompressed(w, r, root, name) {
			return
		}
		files.ServeHTTP(w, r)
	}), nil
}

// precompressed serves name's Brotli or gzip copy when the client accepts
// one and it exists, and reports whether it did.
func precompressed(w http.ResponseWriter, r *http.Request, root *os.Root, name string) bool {
	w.Header().Add("Vary", "Accept-Encoding")
	for _, enc := range encodings {
		if !accepts(r, enc.name) {
			continue
		}
		f, err := root.Open(name + enc.ext)
		if err != nil {
			continue
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
			w.Header().Set("Content-Encoding", enc.name)
			http.ServeContent(w, r, name, st.ModTime(), f)
			return true
		}
	}
	return false
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
