// Package embedpage is a documentation page that embeds dmaviz, for the
// browser tests and the benchmark report: the URLs the docs embed
// (docs/embeds.txt), a page with an iframe for each, and a handler that
// counts what a site sends (bytes, and requests for main.wasm).
package embedpage

import (
	"bufio"
	"fmt"
	"html"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
)

// Queries reads a list of embedded URLs: one query (or whole URL) a line,
// blank lines and lines starting with # skipped. A missing file is an
// empty list.
func Queries(path string) ([]string, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.Index(line, "?"); i >= 0 { // a whole URL: its query
			line = line[i+1:]
		}
		out = append(out, line)
	}
	return out, sc.Err()
}

// Page is an HTML page with an iframe of the embed code's size for each
// query, as a document would embed them.
func Page(queries []string) string {
	var sb strings.Builder
	sb.WriteString("<!doctype html>\n<meta charset=\"utf-8\">\n<title>dmaviz embeds</title>\n")
	for _, q := range queries {
		fmt.Fprintf(&sb, "<iframe src=\"/?%s\" width=\"960\" height=\"600\" style=\"border:0\" title=\"dmaviz\"></iframe>\n", html.EscapeString(q))
	}
	return sb.String()
}

// Counter serves Page at Path and everything else from Site, counting the
// bytes it sends (status lines aside: headers and bodies) and the requests
// for main.wasm. Hold, if set, is called before main.wasm is served (a
// test holds the download back with it).
type Counter struct {
	Site    http.Handler
	Queries []string
	Hold    func(*http.Request)

	Sent atomic.Int64
	Wasm atomic.Int32
}

// Path is where Counter serves the embedding page.
const Path = "/embeds.html"

func (c *Counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	cw := &counted{ResponseWriter: w, n: &c.Sent}
	if r.URL.Path == Path {
		cw.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = cw.Write([]byte(Page(c.Queries)))
		return
	}
	if strings.HasPrefix(r.URL.Path, "/main.wasm") {
		c.Wasm.Add(1)
		if c.Hold != nil {
			c.Hold(r)
		}
	}
	c.Site.ServeHTTP(cw, r)
}

// counted adds the bytes of a response's headers and body to n.
type counted struct {
	http.ResponseWriter
	n      *atomic.Int64
	headed bool
}

func (c *counted) WriteHeader(code int) {
	if !c.headed {
		c.headed = true
		for k, vs := range c.Header() {
			for _, v := range vs {
				c.n.Add(int64(len(k) + len(v) + 4)) // "k: v\r\n"
			}
		}
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *counted) Write(p []byte) (int, error) {
	if !c.headed {
		c.WriteHeader(http.StatusOK)
	}
	n, err := c.ResponseWriter.Write(p)
	c.n.Add(int64(n))
	return n, err
}
