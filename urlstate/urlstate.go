// Package urlstate encodes every choice the page makes (scenario, the A and
// B policies, the size, each parameter under its Param.Name, the cursor,
// speed, alignment, the collapsed panel and embed mode) in a query string,
// and decodes one back. Decoding never fails: a bad or unknown value falls
// back to its default and produces a Message naming the key and what is
// allowed, for the panel (and the CLI, which uses the same keys) to show.
//
// The size (size=lesson|paper, scenario.Size) chooses the values every
// parameter the URL does not name takes: the scenario's lesson setting or
// its paper setting (the defaults). A URL without size opens at the lesson
// size when it names no parameter (a bare visit, ?scenario=etr at most:
// the stage then shows the mechanism, every line a cell and every bug
// failing), and at the paper size when it names any (what such a link
// meant before sizes existed: the defaults under the values it gives).
// Encode always writes the size.
package urlstate

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/play"
)

// Keys that are not scenario parameters. No scenario may name a parameter
// after one of them (a test checks the catalog).
const (
	KeyScenario = "scenario"
	KeyA        = "a"
	KeyB        = "b"
	KeySize     = "size"
	KeyCursor   = "t"
	KeySpeed    = "speed"
	KeyAlign    = "align"
	KeyPanel    = "panel"
	KeyEmbed    = "embed"
	KeyZoom     = "zoom"
	// KeyAutoplay=1 makes an embed start the live simulator at once rather
	// than on a click (the page's loader reads it).
	KeyAutoplay = "autoplay"
)

// ReservedKeys lists the keys above.
func ReservedKeys() []string {
	return []string{KeyScenario, KeyA, KeyB, KeySize, KeyCursor, KeySpeed, KeyAlign, KeyPanel, KeyEmbed, KeyZoom, KeyAutoplay}
}

// State is everything a URL can say.
type State struct {
	Scenario string
	A, B     string // policy ids
	// Size is the setting the parameters the URL does not name take (see
	// the package doc).
	Size scenario.Size
	// Params holds every parameter of the scenario (the platform preset is
	// the parameter named "preset").
	Params    scenario.Params
	Cursor    sim.Time // position on the player's common axis
	Speed     int      // player speed step
	Align     play.Align
	Collapsed bool // panel collapsed (presentation mode)
	Embed     bool // embed=1: stage with a minimal overlay
	Autoplay  bool // autoplay=1: an embed runs live without a click
	// ZoomFirst and ZoomCount are the buffer grids' zoom window (cells
	// [first, first+count)); ZoomCount 0 shows whole grids. The stage
	// clamps the window to each grid.
	ZoomFirst, ZoomCount int
}

// Message reports one bad value; Text names the key and what is allowed.
type Message struct {
	Key  string
	Text string
}

func (m Message) String() string { return m.Text }

// Refusal is the message without the fallback the page takes ("; using
// 4MiB", "; showing demo"): what a caller that refuses bad input, such as
// the CLI, should print.
func (m Message) Refusal() string {
	t := m.Text
	for _, sep := range []string{"; using ", "; showing "} {
		if i := strings.LastIndex(t, sep); i >= 0 {
			t = t[:i]
		}
	}
	return t
}

// Codec encodes and decodes States for the scenarios of one registry.
type Codec struct {
	Registry *scenario.Registry
	// DefaultScenario is opened when the URL names none (or a bad one);
	// empty means the first scenario by id.
	DefaultScenario string
}

// Default returns the state of a URL without a query.
func (c *Codec) Default() State {
	st, _ := c.DecodeValues(nil)
	return st
}

func (c *Codec) defaultScenario() scenario.Scenario {
	if c.Registry == nil {
		return nil
	}
	if s, err := c.Registry.Get(c.DefaultScenario); err == nil {
		return s
	}
	if all := c.Registry.All(); len(all) > 0 {
		return all[0]
	}
	return nil
}

// Encode returns the query string (without "?") for st. Scenario, policies,
// size and every parameter are always written, in the spec's order, so a
// link keeps its meaning if defaults or lesson settings change; view
// settings only when they differ from the defaults.
func (c *Codec) Encode(st State) string {
	var b strings.Builder
	add := func(k, v string) {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(k))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	add(KeyScenario, st.Scenario)
	add(KeyA, st.A)
	add(KeyB, st.B)
	add(KeySize, st.Size.String())
	var spec *scenario.Spec
	if c.Registry != nil {
		if s, err := c.Registry.Get(st.Scenario); err == nil {
			spec = s.Spec()
		}
	}
	if spec != nil {
		for _, d := range spec.Params {
			if v, ok := st.Params[d.Name]; ok {
				add(d.Name, v.Text)
			}
		}
		c.encodeHardware(st, add)
	}
	if st.Cursor != 0 {
		add(KeyCursor, FormatTime(st.Cursor))
	}
	if st.Speed != 0 {
		add(KeySpeed, strconv.Itoa(st.Speed))
	}
	if st.Align != play.AlignTime {
		add(KeyAlign, st.Align.String())
	}
	if st.Collapsed {
		add(KeyPanel, "collapsed")
	}
	if st.Embed {
		add(KeyEmbed, "1")
	}
	if st.Autoplay {
		add(KeyAutoplay, "1")
	}
	if st.ZoomCount > 0 {
		add(KeyZoom, strconv.Itoa(st.ZoomFirst)+":"+strconv.Itoa(st.ZoomCount))
	}
	return b.String()
}

// Decode reads a query string (with or without a leading "?").
func (c *Codec) Decode(query string) (State, []Message) {
	query = strings.TrimPrefix(query, "?")
	v, err := url.ParseQuery(query)
	st, msgs := c.DecodeValues(v)
	if err != nil {
		msgs = append([]Message{{Key: "", Text: "the link is partly unreadable: " + err.Error()}}, msgs...)
	}
	return st, msgs
}

// DecodeValues reads parsed query values. Keys are handled in a fixed
// order, so the messages are too.
func (c *Codec) DecodeValues(v url.Values) (State, []Message) {
	var msgs []Message
	bad := func(key, format string, args ...any) {
		msgs = append(msgs, Message{Key: key, Text: fmt.Sprintf(format, args...)})
	}
	get := func(key string) (string, bool) {
		vals, ok := v[key]
		if !ok || len(vals) == 0 {
			return "", false
		}
		if len(vals) > 1 {
			bad(key, "%s: given %d times; using the first, %s", key, len(vals), scenario.Echo(vals[0]))
		}
		return vals[0], true
	}

	var st State
	s := c.defaultScenario()
	if s == nil {
		bad(KeyScenario, "scenario: no scenarios are registered")
		return st, msgs
	}
	if id, ok := get(KeyScenario); ok {
		if found, err := c.Registry.Get(id); err == nil {
			s = found
		} else {
			bad(KeyScenario, "scenario: %s is not allowed; allowed %s; showing %s", scenario.Echo(id), strings.Join(c.ids(), ", "), s.Spec().ID)
		}
	}
	spec := s.Spec()
	st.Scenario = spec.ID
	st.A = c.policy(spec, KeyA, spec.DefaultA, get, bad)
	st.B = c.policy(spec, KeyB, spec.DefaultB, get, bad)

	st.Size = scenario.SizePaper
	if !namesParam(spec, v) {
		st.Size = scenario.SizeLesson // a bare visit
	}
	if text, ok := get(KeySize); ok {
		if sz, err := scenario.ParseSize(text); err != nil {
			bad(KeySize, "%v; using %s", err, st.Size)
		} else {
			st.Size = sz
		}
	}
	params, err := spec.SizeParams(st.Size)
	if err != nil {
		bad(KeyScenario, "scenario %s: %v", spec.ID, err)
		params = scenario.Params{}
	}
	for _, d := range spec.Params {
		if text, ok := get(d.Name); ok {
			if err := spec.Set(params, d.Name, text); err != nil {
				bad(d.Name, "%v; using %s", err, d.Default)
			}
		}
	}
	c.decodeHardware(spec, v, params, get, bad)
	st.Params = params

	if text, ok := get(KeyCursor); ok {
		t, err := ParseTime(text)
		if err != nil || t < 0 {
			bad(KeyCursor, "t: %s is not a time such as 12.5us (0 to the end of the run); using 0", scenario.Echo(text))
		} else {
			st.Cursor = t
		}
	}
	if text, ok := get(KeySpeed); ok {
		k, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil || k < play.MinSpeed || k > play.MaxSpeed {
			bad(KeySpeed, "speed: %s is not allowed; allowed %d..%d; using 0", scenario.Echo(text), play.MinSpeed, play.MaxSpeed)
		} else {
			st.Speed = k
		}
	}
	if text, ok := get(KeyAlign); ok {
		a, err := play.ParseAlign(text)
		if err != nil {
			bad(KeyAlign, "%v; using time", err)
		}
		st.Align = a
	}
	if text, ok := get(KeyPanel); ok {
		switch text {
		case "collapsed":
			st.Collapsed = true
		case "open":
		default:
			bad(KeyPanel, "panel: %s is not allowed; allowed open or collapsed; using open", scenario.Echo(text))
		}
	}
	if text, ok := get(KeyEmbed); ok {
		switch text {
		case "1":
			st.Embed = true
		case "0":
		default:
			bad(KeyEmbed, "embed: %s is not allowed; allowed 0 or 1; using 0", scenario.Echo(text))
		}
	}
	if text, ok := get(KeyAutoplay); ok {
		switch text {
		case "1":
			st.Autoplay = true
		case "0":
		default:
			bad(KeyAutoplay, "autoplay: %q is not allowed; allowed 0 or 1; using 0", text)
		}
	}

	if text, ok := get(KeyZoom); ok {
		f, c, err := parseZoom(text)
		if err != nil {
			bad(KeyZoom, "zoom: %s is not allowed; allowed first:count, e.g. 1024:64 (count at least 1); showing whole buffers", scenario.Echo(text))
		} else {
			st.ZoomFirst, st.ZoomCount = f, c
		}
	}

	known := map[string]bool{}
	for _, k := range ReservedKeys() {
		known[k] = true
	}
	for _, d := range spec.Params {
		known[d.Name] = true
	}
	var unknown []string
	for k := range v {
		if !known[k] && !isHardwareKey(k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	names := make([]string, len(spec.Params))
	for i, d := range spec.Params {
		names[i] = d.Name
	}
	switch n := len(unknown); {
	case n == 1:
		bad(unknown[0], "%s: unknown key for scenario %s; parameters are %s", echoKey(unknown[0]), spec.ID, strings.Join(names, ", "))
	case n > 1:
		shown := make([]string, 0, unknownShown+1)
		for _, k := range unknown[:min(n, unknownShown)] {
			shown = append(shown, echoKey(k))
		}
		if n > unknownShown {
			shown = append(shown, "…")
		}
		bad(unknown[0], "%s unknown keys for scenario %s: %s; parameters are %s", count(n), spec.ID, strings.Join(shown, ", "), strings.Join(names, ", "))
	}
	return st, capped(msgs)
}

// How many unknown keys a message names, and how many messages a link
// gets at most (the last says how many more there were).
const (
	unknownShown = 3
	maxMessages  = 8
)

// echoKey is a key as a message names it: cut like a value when long.
func echoKey(k string) string {
	if e := scenario.Echo(k); len([]rune(k)) > scenario.EchoMax {
		return e
	}
	return k
}

// capped keeps at most maxMessages messages, the last saying how many
// more there were.
func capped(msgs []Message) []Message {
	if len(msgs) <= maxMessages {
		return msgs
	}
	more := len(msgs) - (maxMessages - 1)
	return append(msgs[:maxMessages-1:maxMessages-1], Message{Text: "and " + count(more) + " more problems in the link"})
}

// count prints n with thousands separators ("1,400").
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// namesParam reports whether v names any of spec's parameters or
// hardware (a board's what-if is at the paper size, as published).
func namesParam(spec *scenario.Spec, v url.Values) bool {
	for _, d := range spec.Params {
		if _, ok := v[d.Name]; ok {
			return true
		}
	}
	for k := range v {
		if isHardwareKey(k) {
			return true
		}
	}
	return false
}

func (c *Codec) policy(spec *scenario.Spec, key, def string, get func(string) (string, bool), bad func(string, string, ...any)) string {
	id, ok := get(key)
	if !ok {
		return def
	}
	if _, err := spec.Policy(id); err != nil {
		ids := make([]string, len(spec.Policies))
		for i, p := range spec.Policies {
			ids[i] = p.ID
		}
		bad(key, "%s: policy %s is not allowed; allowed %s; using %s", key, scenario.Echo(id), strings.Join(ids, ", "), def)
		return def
	}
	return id
}

// parseZoom reads "first:count" with first >= 0 and count >= 1.
func parseZoom(s string) (int, int, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return 0, 0, fmt.Errorf("no colon")
	}
	f, err1 := strconv.ParseUint(a, 10, 31)
	c, err2 := strconv.ParseUint(b, 10, 31)
	if err1 != nil || err2 != nil || c < 1 {
		return 0, 0, fmt.Errorf("bad numbers")
	}
	return int(f), int(c), nil
}

func (c *Codec) ids() []string {
	var ids []string
	for _, s := range c.Registry.All() {
		ids = append(ids, s.Spec().ID)
	}
	return ids
}
