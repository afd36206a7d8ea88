package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/urlstate"
)

// cliArgs are the arguments run and export share.
type cliArgs struct {
	values url.Values // scenario choices in URL keys, validated by urlstate
	json   bool
	at     string // --at: a time such as 12.5us, or "end"
	// flags maps a URL key to the flag the user gave it with ("--at" for
	// t, "--param entry" for entry), so that messages name the flag.
	flags  map[string]string
	svg    string // --svg: output file, "-" for stdout
	board  string // --board: a board file
	light  bool
	width  int
	height int
}

// parseArgs reads "<scenario> [--a p] [--b p] [--preset id] [--param k=v]...
// [--url query] [--json] [--at t] [--svg file] [--align a] [--light]
// [--size WxH]". Flags take "--k v" or "--k=v", with one or two dashes.
// Without --url the run is at the paper size (the published setting):
// size=paper unless given; a --url means what it means in the page (a bare
// one, no parameters and no size, opens at the lesson size).
func parseArgs(args []string, allowed map[string]bool) (*cliArgs, error) {
	c := &cliArgs{values: url.Values{}, width: 1280, height: 720, flags: map[string]string{}}
	fromURL := false
	var pairs [][2]string // applied after --url, so flags override it
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !strings.HasPrefix(arg, "-") {
			if c.values.Has(urlstate.KeyScenario) {
				return nil, fmt.Errorf("unexpected argument %q", arg)
			}
			c.values.Set(urlstate.KeyScenario, arg)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !allowed[name] {
			return nil, fmt.Errorf("unknown flag %s", arg)
		}
		if name == "json" || name == "light" {
			if hasVal {
				return nil, fmt.Errorf("--%s takes no value", name)
			}
			if name == "json" {
				c.json = true
			} else {
				c.light = true
			}
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("--%s needs a value", name)
			}
			i++
			val = args[i]
		}
		switch name {
		case "a", "b", "preset", "align", "zoom":
			for _, p := range pairs {
				if p[0] == name {
					return nil, fmt.Errorf("--%s is given twice; give it once", name)
				}
			}
			pairs = append(pairs, [2]string{name, val})
			c.flags[name] = "--" + name
		case "param":
			k, v, ok := strings.Cut(val, "=")
			if !ok || k == "" {
				return nil, fmt.Errorf("--param %q: want name=value", val)
			}
			for _, r := range urlstate.ReservedKeys() {
				if k == r {
					return nil, fmt.Errorf("--param %s: %s is not a scenario parameter%s", val, k, reservedHint(k, allowed))
				}
			}
			for _, p := range pairs {
				if p[0] == k {
					return nil, fmt.Errorf("--param %s: %s is given twice; give each parameter once", val, k)
				}
			}
			pairs = append(pairs, [2]string{k, v})
			c.flags[k] = "--param " + k
		case "board":
			if c.board != "" {
				return nil, fmt.Errorf("--board is given twice; give it once")
			}
			c.board = val
		case "url":
			q, err := url.ParseQuery(strings.TrimPrefix(val[strings.Index(val, "?")+1:], "?"))
			if err != nil {
				return nil, fmt.Errorf("--url: %v", err)
			}
			fromURL = true
			for k, vs := range q {
				if k == urlstate.KeyScenario && c.values.Has(k) {
					continue // the positional scenario wins
				}
				c.values[k] = vs
			}
		case "at":
			c.at = val
			c.flags[urlstate.KeyCursor] = "--at"
		case "svg":
			c.svg = val
		case "size":
			if _, err := fmt.Sscanf(val, "%dx%d", &c.width, &c.height); err != nil || c.width < 200 || c.height < 200 || c.width > 10000 || c.height > 10000 {
				return nil, fmt.Errorf("--size %q: want WIDTHxHEIGHT, each 200..10000", val)
			}
		}
	}
	for _, p := range pairs {
		c.values.Set(p[0], p[1])
	}
	if c.board != "" {
		if err := c.setBoard(); err != nil {
			return nil, err
		}
	}
	if !fromURL && !c.values.Has(urlstate.KeySize) {
		c.values.Set(urlstate.KeySize, scenario.SizePaper.String())
	}
	if !c.values.Has(urlstate.KeyScenario) && !(allowed["svg"] && c.values.Has(urlstate.KeyLesson)) {
		return nil, fmt.Errorf("missing scenario id (see dmaviz list)")
	}
	return c, nil
}

// resolved is a validated request with both sides run.
type resolved struct {
	s     scenario.Scenario
	spec  *scenario.Spec
	state urlstate.State
	a, b  *scenario.Result
}

// resolve validates c's choices exactly as the page validates a URL (any
// message is an error here: the CLI does not fall back), then runs A and B.
func resolve(c *cliArgs, stderr io.Writer) (*resolved, bool) {
	codec := &urlstate.Codec{Registry: catalog.Registry()}
	st, msgs := codec.DecodeValues(c.values)
	if len(msgs) > 0 {
		for _, m := range msgs {
			fmt.Fprintln(stderr, "dmaviz:", c.flagged(m))
		}
		return nil, false
	}
	s, err := codec.Registry.Get(st.Scenario)
	if err != nil {
		fmt.Fprintln(stderr, "dmaviz:", err)
		return nil, false
	}
	r := &resolved{s: s, spec: s.Spec(), state: st}
	r.a, r.b, err = scenario.RunPair(context.Background(), s, st.Params, st.A, st.B, nil, nil)
	if err != nil {
		policy, cause := st.A, err
		if se, ok := errors.AsType[*scenario.SideError](err); ok {
			policy, cause = se.Policy, se.Err
		}
		fmt.Fprintf(stderr, "dmaviz: %s %s: %v\n", st.Scenario, policy, cause)
		return nil, false
	}
	return r, true
}

// flagSet lists the flags a command accepts.
func flagSet(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// reservedHint says which flag sets a URL key that is not a parameter, when
// the command has one ("" for page-only keys such as speed or embed).
func reservedHint(key string, allowed map[string]bool) string {
	flag := map[string]string{urlstate.KeyCursor: "at", urlstate.KeySize: "url"}[key]
	if flag == "" {
		flag = key
	}
	if key == urlstate.KeySize && allowed[flag] {
		return " (use --url size=lesson or size=paper)"
	}
	if allowed[flag] {
		return " (use --" + flag + ")"
	}
	return " (a page setting; this command has no flag for it)"
}

// flagged is m's refusal naming the flag the user typed ("--at: ..." for a
// message about t) rather than the URL key.
func (c *cliArgs) flagged(m urlstate.Message) string {
	text := m.Refusal()
	if f, ok := c.flags[m.Key]; ok {
		if rest, cut := strings.CutPrefix(text, m.Key+": "); cut {
			return f + ": " + rest
		}
	}
	return text
}
