package sitesrv

import (
	"bytes"
	"compress/gzip"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":   "<!doctype html><title>x</title>",
		"main.wasm":    "\x00asm-raw",
		"wasm_exec.js": "// go",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("\x00asm-raw"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "main.wasm.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var br bytes.Buffer
	bw := brotli.NewWriter(&br)
	bw.Write([]byte("\x00asm-raw"))
	bw.Close()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.wasm.br"), br.Bytes(), 0o644))
	return dir
}

func handler(t *testing.T, dir string) http.Handler {
	t.Helper()
	h, err := Handler(dir)
	require.NoError(t, err)
	return h
}

func get(t *testing.T, h http.Handler, path, acceptEncoding string) *http.Response {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	if acceptEncoding != "" {
		r.Header.Set("Accept-Encoding", acceptEncoding)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

// TestServeWasmEncodings: Brotli when accepted, gzip otherwise, the file
// itself for neither; always the wasm MIME type and Vary: Accept-Encoding.
func TestServeWasmEncodings(t *testing.T) {
	h := handler(t, writeSite(t))
	decode := map[string]func(io.Reader) (io.Reader, error){
		"":     func(r io.Reader) (io.Reader, error) { return r, nil },
		"gzip": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		"br":   func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	}
	for _, tc := range []struct{ accept, want string }{
		{"br", "br"},
		{"gzip, deflate, br, zstd", "br"}, // Chromium's header
		{"br;q=0.5, gzip", "br"},
		{"gzip", "gzip"},
		{"br;q=0, gzip;q=0.8", "gzip"},
		{"*", "br"},
		{"*, br;q=0", "gzip"},
		{"", ""},
		{"identity", ""},
		{"gzip;q=0, deflate", ""},
	} {
		res := get(t, h, "/main.wasm", tc.accept)
		assert.Equal(t, 200, res.StatusCode, tc.accept)
		assert.Equal(t, tc.want, res.Header.Get("Content-Encoding"), "Accept-Encoding %q", tc.accept)
		assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"), tc.accept)
		assert.Equal(t, []string{"Accept-Encoding"}, res.Header.Values("Vary"), tc.accept)
		r, err := decode[res.Header.Get("Content-Encoding")](res.Body)
		require.NoError(t, err, tc.accept)
		body, err := io.ReadAll(r)
		require.NoError(t, err, tc.accept)
		assert.Equal(t, "\x00asm-raw", string(body), tc.accept)
	}
	idx := get(t, h, "/", "br")
	assert.Equal(t, 200, idx.StatusCode)
	assert.True(t, strings.HasPrefix(idx.Header.Get("Content-Type"), "text/html"), idx.Header.Get("Content-Type"))
	assert.Empty(t, idx.Header.Get("Content-Encoding"))
}

// TestServeWithoutBrotliCopy: a site built before Brotli (no .br) still
// gets gzip for a browser that accepts both.
func TestServeWithoutBrotliCopy(t *testing.T) {
	dir := writeSite(t)
	require.NoError(t, os.Remove(filepath.Join(dir, "main.wasm.br")))
	res := get(t, handler(t, dir), "/main.wasm", "gzip, br")
	assert.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
}

func TestServeRefusesUnbuiltSite(t *testing.T) {
	_, _, err := Listen(t.TempDir(), "127.0.0.1:0", false)
	if err == nil || !strings.Contains(err.Error(), "make site") {
		t.Fatalf("err = %v, want a message telling to build the site", err)
	}
}

func TestServeReportsPortInUse(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	_, _, err = Listen(writeSite(t), busy.Addr().String(), false)
	if err == nil || !strings.Contains(err.Error(), "already in use") {
		t.Fatalf("err = %v, want 'already in use'", err)
	}
}

func do(t *testing.T, h http.Handler, method, path string) *http.Response {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
	return w.Result()
}

// TestServeListsNoFolder: a folder without index.html is 404, not a
// listing; one with index.html serves it.
func TestServeListsNoFolder(t *testing.T) {
	dir := writeSite(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "assets", "fonts"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "assets", "fonts", "a.woff2"), []byte("font"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "docs", "index.html"), []byte("<p>docs</p>"), 0o644))
	h := handler(t, dir)
	for _, p := range []string{"/assets/", "/assets/fonts/", "/assets", "/assets/fonts/../"} {
		res := do(t, h, "GET", p)
		body, _ := io.ReadAll(res.Body)
		assert.NotContains(t, string(body), "a.woff2", "%s lists the folder", p)
		assert.NotContains(t, string(body), "fonts/", "%s lists the folder", p)
		assert.Contains(t, []int{404, 301}, res.StatusCode, p)
	}
	res := do(t, h, "GET", "/docs/")
	body, _ := io.ReadAll(res.Body)
	assert.Equal(t, 200, res.StatusCode)
	assert.Equal(t, "<p>docs</p>", string(body))
	assert.Equal(t, 200, do(t, h, "GET", "/assets/fonts/a.woff2").StatusCode)
}

// TestServeStaysInItsFolder: neither ".." nor a symbolic link leads out
// of the folder (tried with a link to a file and one to a folder outside);
// a link that stays inside still works.
func TestServeStaysInItsFolder(t *testing.T) {
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "index.html"), []byte("SECRET index"), 0o644))
	dir := writeSite(t)
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "secret.txt")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "etc")))
	require.NoError(t, os.Symlink("index.html", filepath.Join(dir, "home.html")))
	h := handler(t, dir)
	for _, p := range []string{"/secret.txt", "/etc/secret", "/etc/", "/etc", "/../" + filepath.Base(outside) + "/secret", "/%2e%2e/secret"} {
		res := do(t, h, "GET", p)
		body, _ := io.ReadAll(res.Body)
		assert.NotContains(t, string(body), "SECRET", "%s serves a file outside the folder", p)
		assert.NotEqual(t, 200, res.StatusCode, p)
	}
	res := do(t, h, "GET", "/home.html")
	assert.Equal(t, 200, res.StatusCode, "a link inside the folder")
}

// TestServeAnswersOnlyGETAndHEAD: other methods are 405 with Allow.
func TestServeAnswersOnlyGETAndHEAD(t *testing.T) {
	h := handler(t, writeSite(t))
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "TRACE", "OPTIONS", "CONNECT"} {
		res := do(t, h, m, "/index.html")
		assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, m)
		assert.Equal(t, "GET, HEAD", res.Header.Get("Allow"), m)
	}
	assert.Equal(t, 200, do(t, h, "GET", "/wasm_exec.js").StatusCode)
	head := do(t, h, "HEAD", "/main.wasm")
	assert.Equal(t, 200, head.StatusCode)
	body, _ := io.ReadAll(head.Body)
	assert.Empty(t, body)
}

// TestServeSendsThePagesCSP: the header is the policy of the site's
// index.html (the <meta> tag), on every response; DefaultCSP without one.
func TestServeSendsThePagesCSP(t *testing.T) {
	dir := writeSite(t)
	const csp = "default-src 'none'; script-src 'self'"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"),
		[]byte(`<!doctype html><meta http-equiv="Content-Security-Policy" content="`+csp+`"><title>x</title>`), 0o644))
	h := handler(t, dir)
	for _, p := range []string{"/", "/index.html", "/main.wasm", "/wasm_exec.js"} {
		assert.Equal(t, csp, do(t, h, "GET", p).Header.Get("Content-Security-Policy"), p)
	}
	assert.Equal(t, DefaultCSP, get(t, handler(t, writeSite(t)), "/", "").Header.Get("Content-Security-Policy"))
	// The page's own index.html names its policy in a tag this server reads.
	root, err := os.OpenRoot(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	defer root.Close()
	page := pageCSP(root)
	assert.Contains(t, page, "default-src 'none'", "index.html's CSP tag was not found")
}

// TestServeListensOnLoopbackUnlessPublic: an address other machines can
// reach is refused, naming -public; with it, it is taken.
func TestServeListensOnLoopbackUnlessPublic(t *testing.T) {
	dir := writeSite(t)
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0"} {
		_, _, err := Listen(dir, addr, false)
		require.Error(t, err, addr)
		assert.Contains(t, err.Error(), "-public", addr)
		assert.Contains(t, err.Error(), "not a loopback address", addr)
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "[::1]:0"} {
		ln, _, err := Listen(dir, addr, false)
		if err != nil && strings.Contains(err.Error(), "cannot listen") && strings.HasPrefix(addr, "[::1]") {
			continue // no IPv6 loopback on this machine
		}
		require.NoError(t, err, addr)
		ln.Close()
	}
	ln, _, err := Listen(dir, "0.0.0.0:0", true)
	require.NoError(t, err)
	ln.Close()
}
