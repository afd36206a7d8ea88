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
	h := Handler(writeSite(t))
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
	res := get(t, Handler(dir), "/main.wasm", "gzip, br")
	assert.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
}

func TestServeRefusesUnbuiltSite(t *testing.T) {
	_, _, err := Listen(t.TempDir(), "127.0.0.1:0")
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
	_, _, err = Listen(writeSite(t), busy.Addr().String())
	if err == nil || !strings.Contains(err.Error(), "already in use") {
		t.Fatalf("err = %v, want 'already in use'", err)
	}
}
