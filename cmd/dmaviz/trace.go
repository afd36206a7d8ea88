package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/dmaviz/dmaviz/trace"
)

// takeFlag removes "--name file" (or --name=file) from args and returns
// the value ("" when absent).
func takeFlag(args []string, name string) ([]string, string, error) {
	var rest []string
	val := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		n, v, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || n != name {
			rest = append(rest, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, "", fmt.Errorf("--%s needs a value", name)
			}
			i++
			v = args[i]
		}
		if v == "" {
			return nil, "", fmt.Errorf("--%s needs a file name", name)
		}
		val = v
	}
	return rest, val, nil
}

// traceMeta is the metadata of r's trace.
func traceMeta(r *resolved) trace.Meta {
	m := trace.Meta{Scenario: r.spec.ID, Title: r.spec.Title}
	for _, d := range r.spec.Params {
		m.Params = append(m.Params, [2]string{d.Name, r.state.Params.Text(d.Name)})
	}
	return m
}

// writeTrace writes r's A and B as Chrome trace-event JSON to file ("-"
// for stdout).
func writeTrace(r *resolved, file string, stdout io.Writer) error {
	var b bytes.Buffer
	if err := trace.Write(&b, traceMeta(r), r.a, r.b); err != nil {
		return err
	}
	if file == "-" {
		_, err := stdout.Write(b.Bytes())
		return err
	}
	return writeFileAtomic(file, b.Bytes())
}
