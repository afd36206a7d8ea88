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

func TestServeWasmMimeAndGzip(t *testing.T) {
	h := Handler(writeSite(t))

	plain := get(t, h, "/main.wasm", "")
	body, _ := io.ReadAll(plain.Body)
	if ct := plain.Header.Get("Content-Type"); ct != "application/wasm" {
		t.Errorf("plain wasm Content-Type = %q", ct)
	}
	if plain.Header.Get("Content-Encoding") != "" || string(body) != "\x00asm-raw" {
		t.Errorf("plain wasm: encoding %q body %q", plain.Header.Get("Content-Encoding"), body)
	}

	gz := get(t, h, "/main.wasm", "br, gzip;q=0.8")
	if gz.Header.Get("Content-Encoding") != "gzip" || gz.Header.Get("Content-Type") != "application/wasm" {
		t.Fatalf("gzip wasm headers: %v", gz.Header)
	}
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(zr); string(b) != "\x00asm-raw" {
		t.Errorf("gzip body decodes to %q", b)
	}

	refused := get(t, h, "/main.wasm", "gzip;q=0")
	if refused.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 still got gzip")
	}
	if idx := get(t, h, "/", ""); idx.StatusCode != 200 || !strings.HasPrefix(idx.Header.Get("Content-Type"), "text/html") {
		t.Errorf("index: %d %q", idx.StatusCode, idx.Header.Get("Content-Type"))
	}
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
