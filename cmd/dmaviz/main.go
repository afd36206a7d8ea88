// Command dmaviz serves the built site and runs scenarios natively.
//
//	dmaviz serve [-dir dist] [-addr 127.0.0.1:8080] [-public]
//	dmaviz list
//	dmaviz run <scenario> [--a policy] [--b policy] [--preset id] [--param k=v ...] [--url query] [--board file] [--json] [--trace file] [--uncertainty]
//	dmaviz export <scenario> ... --at <cursor> --svg out.svg
//	dmaviz sweep <scenario> --vary key=lo..hi:x2 [--vary key=a,b] ... [--csv f] [--json f] [--svg f --metric m]
//	dmaviz preset list | dmaviz preset show <name> [--json]
//	dmaviz board list | board show <name|file> [--table] | board diff <a> <b>
//	dmaviz validate [scenario ...] [--bands] [--json]
package main

import (
	"fmt"
	"io"
	"os"
)

type command struct {
	name string
	help string
	run  func(args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"serve", "serve the built site (dist/) on a loopback address", runServe},
		{"list", "list scenarios with their policies, presets and parameters", runList},
		{"run", "run a scenario's A and B policies and print the metrics", runRun},
		{"export", "write the frame a URL would show as SVG", runExport},
		{"sweep", "run A and B over a range of one or two parameters (CSV, JSON, SVG chart)", runSweep},
		{"preset", "list the hardware presets, or show one's parameters with their provenance", runPreset},
		{"board", "list the built-in boards, show one as a board file (JSON with units), diff two", runBoard},
		{"validate", "every published figure: calibrated or predicted, model vs published (exit 1: a prediction outside)", runValidate},
	}
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "dmaviz: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: dmaviz <command> [arguments]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-7s %s\n", c.name, c.help)
	}
}
