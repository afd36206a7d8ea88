package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"

	"github.com/dmaviz/dmaviz/cmd/internal/sitesrv"
)

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "dist", "built site folder (make site)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ln, h, err := sitesrv.Listen(*dir, *addr)
	if err != nil {
		fmt.Fprintln(stderr, "dmaviz serve:", err)
		return 1
	}
	fmt.Fprintf(stdout, "dmaviz: serving %s on http://%s/\n", *dir, ln.Addr())
	if err := http.Serve(ln, h); err != nil {
		fmt.Fprintln(stderr, "dmaviz serve:", err)
		return 1
	}
	return 0
}
