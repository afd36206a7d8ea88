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
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (loopback only, unless -public)")
	public := fs.Bool("public", false, "allow an address other machines can reach (the site is static: GET and HEAD of files under -dir only)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ln, h, err := sitesrv.Listen(*dir, *addr, *public)
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
