package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
)

const boardUsage = `usage: dmaviz board list
       dmaviz board show NAME|FILE [--table]
       dmaviz board diff A B          (A, B: preset names or board files)`

// runBoard lists the built-in boards, prints one as a board file (JSON
// with units, the form --board reads) or compares two.
func runBoard(args []string, stdout, stderr io.Writer) int {
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "dmaviz board: "+format+"\n%s\n", append(a, boardUsage)...)
		return 2
	}
	if len(args) == 0 {
		return bad("name a subcommand: list, show or diff")
	}
	switch args[0] {
	case "list":
		if len(args) > 1 {
			return bad("list takes no arguments")
		}
		return presetList(stdout)
	case "show":
		var name string
		table := false
		for _, a := range args[1:] {
			switch {
			case a == "--table" || a == "-table":
				table = true
			case name == "":
				name = a
			default:
				return bad("show: unexpected argument %q", a)
			}
		}
		if name == "" {
			return bad("show: name a board: %s, or a board file", strings.Join(platform.Names(), ", "))
		}
		lb, err := loadBoard(name)
		if err != nil {
			fmt.Fprintln(stderr, "dmaviz board show:", err)
			return 2
		}
		if table {
			return boardTable(stdout, stderr, lb)
		}
		_, err = stdout.Write(platform.MarshalBoard(lb.base, &lb.board))
		if err != nil {
			fmt.Fprintln(stderr, "dmaviz board show:", err)
			return 1
		}
		return 0
	case "diff":
		if len(args) != 3 {
			return bad("diff takes two boards")
		}
		var bs [2]loadedBoard
		for i, a := range args[1:] {
			lb, err := loadBoard(a)
			if err != nil {
				fmt.Fprintln(stderr, "dmaviz board diff:", err)
				return 2
			}
			bs[i] = lb
		}
		boardDiff(stdout, bs[0], bs[1])
		return 0
	}
	return bad("unknown subcommand %q", args[0])
}

// loadedBoard is a board named on the command line: a preset, or a file
// built on one.
type loadedBoard struct {
	label string // the name or file as given
	base  string
	file  *platform.BoardFile // nil for a preset
	board platform.Board
}

// loadBoard reads a preset name or a board file. A file's errors name
// the file and the JSON path.
func loadBoard(arg string) (loadedBoard, error) {
	lb := loadedBoard{label: arg, base: arg}
	if b, err := platform.LookupBoard(arg); err == nil {
		lb.board = b
		return lb, nil
	}
	f, err := readBoardFile(arg)
	if err != nil {
		return lb, err
	}
	lb.file, lb.base = &f, f.Base
	lb.board, err = f.Build()
	if err != nil {
		return lb, fmt.Errorf("%s: %w", arg, err)
	}
	return lb, nil
}

// readBoardFile reads and parses a board file (at most MaxBoardFile
// bytes).
func readBoardFile(name string) (platform.BoardFile, error) {
	fh, err := os.Open(name)
	if err != nil {
		if os.IsNotExist(err) && !strings.ContainsAny(name, "./") {
			return platform.BoardFile{}, fmt.Errorf("%s is neither a preset (%s) nor a board file", name, strings.Join(platform.Names(), ", "))
		}
		return platform.BoardFile{}, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, platform.MaxBoardFile+1))
	if err != nil {
		return platform.BoardFile{}, err
	}
	f, err := platform.ReadBoard(data)
	if err != nil {
		return f, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// boardTable prints a preset's parameters with provenance (preset show's
// table); for a file, the same with the file's values and a mark on the
// ones it changed.
func boardTable(w, stderr io.Writer, lb loadedBoard) int {
	ps, err := platform.Parameters(lb.base)
	if err != nil {
		fmt.Fprintln(stderr, "dmaviz board show:", err)
		return 2
	}
	if lb.file == nil {
		presetTable(w, lb.base, ps)
		return 0
	}
	fmt.Fprintf(w, "%s · built on %s; * marks a value the file changed (its provenance is then yours)\n\n", lb.label, lb.base)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "path\tvalue\t\tpreset's kind\tsource or range")
	prov := map[string]int{}
	for i := range ps {
		prov[ps[i].Path] = i
	}
	for _, f := range lb.board.Fields() {
		mark, kind, src := "", "-", "-"
		if i, ok := prov[f.Path]; ok {
			kind, src = ps[i].Kind.String(), ps[i].Describe()
			if ps[i].Value != f.Value {
				mark = "*"
			}
		} else {
			mark = "*"
		}
		text := f.Text
		if _, err := strconv.ParseFloat(text, 64); err == nil && f.Unit != "" {
			text += " " + f.Unit // a cycle count, as preset show prints it
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Path, text, mark, kind, src)
	}
	tw.Flush()
	return 0
}

// boardDiff prints the parameters whose values differ ("-" where a board
// lacks the unit).
func boardDiff(w io.Writer, a, b loadedBoard) {
	type pair struct{ a, b string }
	vals := map[string]*pair{}
	var order []string
	for i, lb := range []loadedBoard{a, b} {
		for _, f := range lb.board.Fields() {
			p, ok := vals[f.Path]
			if !ok {
				p = &pair{"-", "-"}
				vals[f.Path] = p
				order = append(order, f.Path)
			}
			if i == 0 {
				p.a = f.Text
			} else {
				p.b = f.Text
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "path\t%s\t%s\n", a.label, b.label)
	n := 0
	for _, path := range order {
		if p := vals[path]; p.a != p.b {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", path, p.a, p.b)
			n++
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "%d of %d parameters differ\n", n, len(order))
}

// setBoard applies --board FILE: the file's base preset becomes the
// preset and its values hw.* keys. Precedence: hw.* keys given with --url
// or --param edit the file's board (each wins for its path); a preset
// given with --preset or --url must be the file's base.
func (c *cliArgs) setBoard() error {
	f, err := readBoardFile(c.board)
	if err != nil {
		return fmt.Errorf("--board %w", err)
	}
	over, err := f.Overrides()
	if err != nil {
		return fmt.Errorf("--board %s: %w", c.board, err)
	}
	if p := c.values.Get("preset"); c.values.Has("preset") && p != f.Base {
		return fmt.Errorf("--board %s is built on %s but the preset given is %s; give one", c.board, f.Base, p)
	}
	c.values.Set("preset", f.Base)
	for path, v := range over {
		if k := scenario.HardwarePrefix + path; !c.values.Has(k) {
			c.values.Set(k, platform.FormatText(path, v))
		}
	}
	return nil
}
