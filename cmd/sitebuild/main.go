// Command sitebuild assembles the static site in dist/ around a built
// main.wasm: the pre-rendered first views in dist/first (each scenario's
// opening setting and each URL in docs/embeds.txt: the stage as SVG, the
// panel as HTML, the results as JSON; see site/firstview), index.html
// (with their index and the wasm size for the progress bar), the page
// scripts and styles, Go's wasm_exec.js, Vugu's DOM helper script (so the page
// needs no eval), and gzip and Brotli copies of main.wasm for servers that can
// send them (`dmaviz serve` does).
//
//	go run ./cmd/sitebuild -out dist -goroot $(go env GOROOT) -vugu <vugu module dir>
package main

import (
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
)

func main() {
	out := flag.String("out", "dist", "site folder holding main.wasm")
	goroot := flag.String("goroot", "", "Go root (for lib/wasm/wasm_exec.js)")
	vuguDir := flag.String("vugu", "", "directory of the github.com/vugu/vugu module")
	index := flag.String("index", "index.html", "page template")
	web := flag.String("web", "assets/web", "folder of page scripts and styles")
	embeds := flag.String("embeds", "docs/embeds.txt", "URLs the docs embed, pre-rendered beside each scenario's opening view")
	flag.Parse()
	if err := build(*out, *goroot, *vuguDir, *index, *web, *embeds); err != nil {
		fmt.Fprintln(os.Stderr, "sitebuild:", err)
		os.Exit(1)
	}
}

func build(out, goroot, vuguDir, index, web, embeds string) error {
	wasm := filepath.Join(out, "main.wasm")
	st, err := os.Stat(wasm)
	if err != nil {
		return fmt.Errorf("%s: build main.wasm first (make wasm): %w", wasm, err)
	}
	page, err := os.ReadFile(index)
	if err != nil {
		return err
	}
	idx, err := buildFirst(out, embeds)
	if err != nil {
		return err
	}
	block, err := indexBlock(idx)
	if err != nil {
		return err
	}
	html := strings.ReplaceAll(string(page), "{{WASM_SIZE}}", strconv.FormatInt(st.Size(), 10))
	html = strings.ReplaceAll(html, "{{FIRST_VIEWS}}", block)
	if err := os.WriteFile(filepath.Join(out, "index.html"), []byte(html), 0o644); err != nil {
		return err
	}
	files, err := os.ReadDir(web)
	if err != nil {
		return err
	}
	for _, f := range files {
		if !f.IsDir() {
			if err := copyFile(filepath.Join(web, f.Name()), filepath.Join(out, f.Name())); err != nil {
				return err
			}
		}
	}
	if err := copyFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), filepath.Join(out, "wasm_exec.js")); err != nil {
		return err
	}
	helper, err := vuguHelper(filepath.Join(vuguDir, "domrender", "renderer-js-script.go"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "vugu-helper.js"), []byte(helper), 0o644); err != nil {
		return err
	}
	if err := compressFile(wasm, wasm+".gz", gzipLevel); err != nil {
		return err
	}
	return compressFile(wasm, wasm+".br", brotliLevel)
}

// vuguHelper reads the jsHelperScript constant that Vugu's DOM renderer
// would otherwise install with eval.
func vuguHelper(path string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return "", err
	}
	var script string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, name := range vs.Names {
			if name.Name == "jsHelperScript" && i < len(vs.Values) {
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
					script, _ = strconv.Unquote(lit.Value)
				}
			}
		}
		return false
	})
	if script == "" {
		return "", fmt.Errorf("%s: no jsHelperScript constant (Vugu version changed?)", path)
	}
	return script, nil
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// gzipLevel is gzip -9.
func gzipLevel(w io.Writer) io.WriteCloser {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression) // a valid level: no error
	return zw
}

// brotliLevel is Brotli's best compression with a 16 MiB window: main.wasm
// is a few MiB, so the whole file fits the window (the default 4 MiB window
// gives a slightly larger file). Decoders accept windows up to 16 MiB.
func brotliLevel(w io.Writer) io.WriteCloser {
	return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
}

// compressFile writes src compressed by the encoder enc into dst.
func compressFile(src, dst string, enc func(io.Writer) io.WriteCloser) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	zw := enc(out)
	_, err = io.Copy(zw, in)
	return errors.Join(err, zw.Close(), out.Close())
}
