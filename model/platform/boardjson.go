package platform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// A board file is JSON that names its base preset and gives any subset
// of the board's parameters, nested by unit as the paths are dotted, each
// value in the canonical text of its path (FormatText) - a number where
// the text is a plain number, true/false for a flag:
//
//	{"base": "juno-r2", "l2": {"size": "2MiB", "ways": 16}, "dram": {"latency": "95ns"}}
//
// MarshalBoard writes every parameter a board has, in the schema's order,
// so `dmaviz board show NAME` is itself a board file. One codec, derived
// from the schema, serves every preset.

// fileBase is the key naming the board file's base preset.
const fileBase = "base"

// MaxBoardFile is the largest board file read (bytes).
const MaxBoardFile = 1 << 20

// MarshalBoard writes b, built on the preset base, as a board file with
// every parameter b has.
func MarshalBoard(base string, b *Board) []byte {
	root := &jsonNode{}
	for i := range schema {
		p := &schema[i]
		if p.applies(b) {
			root.put(strings.Split(p.path, "."), p.format(p.get(b)))
		}
	}
	var out bytes.Buffer
	out.WriteString("{\n  \"" + fileBase + "\": ")
	writeJSONString(&out, base)
	for _, k := range root.kids {
		out.WriteString(",\n")
		k.write(&out, 1)
	}
	out.WriteString("\n}\n")
	return out.Bytes()
}

// BoardJSON is the named preset's board file.
func BoardJSON(name string) ([]byte, error) {
	b, err := LookupBoard(name)
	if err != nil {
		return nil, err
	}
	return MarshalBoard(name, &b), nil
}

// jsonNode is one object key: a unit (kids, in schema order) or a value.
type jsonNode struct {
	key  string
	text string
	kids []*jsonNode
}

func (n *jsonNode) put(keys []string, text string) {
	if len(keys) == 0 {
		n.text = text
		return
	}
	for _, k := range n.kids {
		if k.key == keys[0] {
			k.put(keys[1:], text)
			return
		}
	}
	k := &jsonNode{key: keys[0]}
	n.kids = append(n.kids, k)
	k.put(keys[1:], text)
}

func (n *jsonNode) write(out *bytes.Buffer, depth int) {
	indent := strings.Repeat("  ", depth)
	out.WriteString(indent)
	writeJSONString(out, n.key)
	out.WriteString(": ")
	if len(n.kids) == 0 {
		out.WriteString(jsonValue(n.text))
		return
	}
	out.WriteString("{\n")
	for i, k := range n.kids {
		if i > 0 {
			out.WriteString(",\n")
		}
		k.write(out, depth+1)
	}
	out.WriteString("\n" + indent + "}")
}

// jsonValue is text as a JSON value: a number or true/false as such,
// anything else a string.
func jsonValue(text string) string {
	if text == "true" || text == "false" {
		return text
	}
	if json.Valid([]byte(text)) {
		if _, err := strconv.ParseFloat(text, 64); err == nil {
			return text
		}
	}
	var b bytes.Buffer
	writeJSONString(&b, text)
	return b.String()
}

func writeJSONString(out *bytes.Buffer, s string) {
	b, _ := json.Marshal(s) // a string always marshals
	out.Write(b)
}

// BoardFile is a parsed board file: its base preset and the values it
// gives, in the schema's order.
type BoardFile struct {
	Base  string
	Given []Override
}

// ReadBoard parses a board file. An unknown key, a bad value, a unit
// where a value belongs (or the reverse) and a key given twice are
// errors naming the JSON path and what is allowed.
func ReadBoard(data []byte) (BoardFile, error) {
	if len(data) > MaxBoardFile {
		return BoardFile{}, fmt.Errorf("the board file is %d bytes; allowed at most %d", len(data), MaxBoardFile)
	}
	r := boardReader{dec: json.NewDecoder(bytes.NewReader(data)), data: data, seen: map[string]bool{}}
	r.dec.UseNumber()
	if err := r.expectObject(""); err != nil {
		return BoardFile{}, err
	}
	if err := r.object(""); err != nil {
		return BoardFile{}, err
	}
	if _, err := r.dec.Token(); err != io.EOF {
		return BoardFile{}, r.syntax(errors.New("more after the board's closing brace"))
	}
	if r.file.Base == "" {
		return BoardFile{}, fmt.Errorf("%s: missing; name the preset the board is built on: %s", fileBase, strings.Join(Names(), ", "))
	}
	rank := map[string]int{}
	for i := range schema {
		rank[schema[i].path] = i
	}
	sort.SliceStable(r.file.Given, func(i, j int) bool { return rank[r.file.Given[i].Path] < rank[r.file.Given[j].Path] })
	return r.file, nil
}

type boardReader struct {
	dec  *json.Decoder
	data []byte
	seen map[string]bool
	file BoardFile
}

// syntax names where in the file err happened (line:column).
func (r *boardReader) syntax(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = errors.New("the file ends inside the board (a missing } or value)")
	}
	off := int(r.dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset)
	}
	off = min(off, len(r.data))
	line := 1 + bytes.Count(r.data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(r.data[:off], '\n')
	return fmt.Errorf("line %d column %d: %v", line, col, err)
}

func (r *boardReader) expectObject(path string) error {
	t, err := r.dec.Token()
	if err != nil {
		return r.syntax(err)
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		if path == "" {
			return r.syntax(errors.New("a board file is a JSON object, such as {\"base\": \"juno-r2\", \"l2\": {\"size\": \"2MiB\"}}"))
		}
		return fmt.Errorf("%s: a unit is an object of its fields; %s", path, KnownPaths(path+"."))
	}
	return nil
}

// object reads the members of the object at path (its '{' read).
func (r *boardReader) object(path string) error {
	for r.dec.More() {
		t, err := r.dec.Token()
		if err != nil {
			return r.syntax(err)
		}
		key, _ := t.(string)
		full := key
		if path != "" {
			full = path + "." + key
		}
		if r.seen[full] {
			return fmt.Errorf("%s: given twice; give each field once", echoPath(full))
		}
		r.seen[full] = true
		if err := r.member(full); err != nil {
			return err
		}
	}
	_, err := r.dec.Token() // '}'
	if err != nil {
		return r.syntax(err)
	}
	return nil
}

// member reads the value of the key at path.
func (r *boardReader) member(path string) error {
	if path == fileBase {
		t, err := r.dec.Token()
		if err != nil {
			return r.syntax(err)
		}
		name, ok := t.(string)
		if _, err := find(name); !ok || err != nil {
			return fmt.Errorf("%s: %s is not a preset; allowed %s", fileBase, echo(fmt.Sprint(t)), strings.Join(Names(), ", "))
		}
		r.file.Base = name
		return nil
	}
	p := paramByPath(path)
	if p == nil {
		if !isUnit(path) {
			return unknownPath(path)
		}
		if err := r.expectObject(path); err != nil {
			return err
		}
		return r.object(path)
	}
	t, err := r.dec.Token()
	if err != nil {
		return r.syntax(err)
	}
	var text string
	switch v := t.(type) {
	case string:
		text = v
	case json.Number:
		text = v.String()
	case bool:
		text = strconv.FormatBool(v)
	default:
		return fmt.Errorf("%s: a value is needed (%s), not %v", path, p.allowed(), t)
	}
	v, err := p.parse(text)
	if err != nil {
		return err
	}
	r.file.Given = append(r.file.Given, Override{Path: path, Value: v})
	return nil
}

// allowed says what the parameter's value may be written as.
func (p *param) allowed() string {
	if p.parseName != nil {
		return p.names
	}
	return unitForms(p.unit)
}

// isUnit reports whether path is a unit: the prefix of some schema path.
func isUnit(path string) bool {
	for i := range schema {
		if strings.HasPrefix(schema[i].path, path+".") {
			return true
		}
	}
	return false
}

// Build returns the file's board: its base preset with the file's values
// set in the schema's order (a clock before the cycle counts given with
// it), validated. Errors name the JSON path.
func (f *BoardFile) Build() (Board, error) {
	base, err := find(f.Base)
	if err != nil {
		return Board{}, fmt.Errorf("%s: %w", fileBase, err)
	}
	b := base.board()
	for _, o := range f.Given {
		p := paramByPath(o.Path)
		if p == nil {
			return Board{}, unknownPath(o.Path)
		}
		if !p.applies(&b) {
			return Board{}, fmt.Errorf("%s: %s's board has no such unit", o.Path, f.Base)
		}
		if err := p.put(&b, o.Value); err != nil {
			return Board{}, fmt.Errorf("%s: %w", o.Path, err)
		}
	}
	if err := b.Validate(); err != nil {
		return Board{}, err
	}
	return b, nil
}

// Overrides returns overrides of the base preset (path -> value, as
// BoardWith and a link's hw.* keys take them) that build the same board
// as the file: the values that differ from the base's, and those a
// clock's change would otherwise move (smmu.clock follows
// clocks.platform unless given).
func (f *BoardFile) Overrides() (map[string]float64, error) {
	want, err := f.Build()
	if err != nil {
		return nil, err
	}
	over := map[string]float64{}
	for range len(schema) { // each round adds at least one path, or ends
		got, err := BoardWith(f.Base, over)
		if err != nil {
			return nil, err
		}
		added := false
		for i := range schema {
			p := &schema[i]
			if !p.applies(&want) {
				continue
			}
			w := p.get(&want)
			if !p.applies(&got) || p.get(&got) != w {
				if _, ok := over[p.path]; !ok {
					over[p.path] = w
					added = true
				}
			}
		}
		if !added {
			return over, nil
		}
	}
	return over, nil
}

// Field is one parameter of a board: its path, value in its unit and
// canonical text.
type Field struct {
	Path  string
	Value float64
	Text  string
	Unit  string
}

// Fields lists every parameter b has, in the schema's order.
func (b *Board) Fields() []Field {
	var out []Field
	for i := range schema {
		p := &schema[i]
		if p.applies(b) {
			v := p.get(b)
			out = append(out, Field{p.path, v, p.format(v), p.unit})
		}
	}
	return out
}
