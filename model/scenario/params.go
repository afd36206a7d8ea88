package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/bytesize"
)

// Kind is the type of a parameter.
type Kind int

const (
	KindInt    Kind = iota // whole number, e.g. iterations
	KindFloat              // real number, e.g. a fraction
	KindBytes              // size in bytes; text accepts 4MiB, 64KiB, 512 (binary units)
	KindChoice             // one of Choices
	KindBool               // true/false (also 1/0, on/off)
)

// Param declares one parameter. The panel builds its control from it and the
// URL codec uses Name as the query key.
type Param struct {
	Name    string // URL key and CLI name, e.g. "buffer"
	Label   string // shown in the panel
	Kind    Kind
	Unit    string // "B" for sizes, "" when unitless
	Help    string
	Default string // canonical text form, must validate
	// Min and Max bound numeric kinds (inclusive).
	Min, Max float64
	// Step, when set, is the granularity of a numeric kind: a value must be
	// a whole multiple of it (a buffer in whole 4 KiB pages). Range says it.
	Step float64
	// Pow2 asks for a power-of-two number of Steps (of 1 without a Step),
	// as perf asks of its AUX ring.
	Pow2    bool
	Choices []Choice // for KindChoice
}

// Choice is one allowed value of a KindChoice parameter.
type Choice struct {
	Value string
	Label string
}

// Value is one parsed parameter value.
type Value struct {
	Num  float64 // numeric kinds and bool (0/1)
	Text string  // canonical text form (also the choice id)
}

// Params holds parsed values by parameter name. Iterate the Spec's Params,
// never this map, when order matters.
type Params map[string]Value

// Int returns the value of an int or bytes parameter (0 if absent).
func (p Params) Int(name string) int64 { return int64(p[name].Num) }

// Float returns the value of a numeric parameter (0 if absent).
func (p Params) Float(name string) float64 { return p[name].Num }

// Bool returns the value of a bool parameter.
func (p Params) Bool(name string) bool { return p[name].Num != 0 }

// Text returns the canonical text of a parameter (the id for a choice).
func (p Params) Text(name string) string { return p[name].Text }

// Parse validates one text value for this parameter. The error names the
// parameter and the allowed range or choices.
func (d *Param) Parse(text string) (Value, error) {
	s := strings.TrimSpace(text)
	switch d.Kind {
	case KindInt, KindFloat, KindBytes:
		var v float64
		var err error
		if d.Kind == KindBytes {
			v, err = ParseBytes(s)
		} else {
			v, err = strconv.ParseFloat(s, 64)
		}
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return Value{}, fmt.Errorf("%s: %s is not a %s; allowed %s", d.Name, Echo(text), d.kindName(), d.Range())
		}
		if d.Kind != KindFloat && v != math.Trunc(v) {
			whole := "a whole number"
			if d.Kind == KindBytes {
				whole = "a whole number of bytes"
			}
			return Value{}, fmt.Errorf("%s: %s is not %s; allowed %s", d.Name, Echo(text), whole, d.Range())
		}
		if v < d.Min || v > d.Max {
			return Value{}, fmt.Errorf("%s: %s is out of range; allowed %s", d.Name, strings.Trim(Echo(s), `"`), d.Range())
		}
		if why := d.offGrain(v); why != "" {
			return Value{}, fmt.Errorf("%s: %s is %s; allowed %s", d.Name, d.Format(v), why, d.Range())
		}
		return Value{Num: v, Text: d.Format(v)}, nil
	case KindBool:
		switch strings.ToLower(s) {
		case "1", "true", "on", "yes":
			return Value{Num: 1, Text: "true"}, nil
		case "0", "false", "off", "no":
			return Value{Num: 0, Text: "false"}, nil
		}
		return Value{}, fmt.Errorf("%s: %s is not a boolean; allowed true or false", d.Name, Echo(text))
	case KindChoice:
		for _, c := range d.Choices {
			if c.Value == s {
				return Value{Text: c.Value}, nil
			}
		}
		return Value{}, fmt.Errorf("%s: %s is not allowed; allowed %s", d.Name, Echo(text), d.Range())
	}
	return Value{}, fmt.Errorf("%s: unknown parameter kind %d", d.Name, d.Kind)
}

func (d *Param) kindName() string {
	switch d.Kind {
	case KindInt:
		return "whole number"
	case KindBytes:
		return "size"
	}
	return "number"
}

// offGrain says how v misses the parameter's Step or Pow2 rule ("" when it
// keeps it).
func (d *Param) offGrain(v float64) string {
	n := v
	if d.Step > 0 {
		n = v / d.Step
		if n != math.Trunc(n) {
			return "not a whole number of " + d.grainName()
		}
	}
	if d.Pow2 {
		if k := int64(n); n < 1 || k&(k-1) != 0 {
			return "not a power-of-two number of " + d.grainName()
		}
	}
	return ""
}

// grainName is what one Step is called in messages: "4KiB pages" for a
// page-sized step, else the step's size ("512B").
func (d *Param) grainName() string {
	if d.Step == 0 {
		return "units"
	}
	if d.Kind == KindBytes && d.Step == 4096 {
		return "4KiB pages"
	}
	return d.Format(d.Step) + "s"
}

// Format returns the canonical text of a numeric value.
func (d *Param) Format(v float64) string {
	switch d.Kind {
	case KindBytes:
		return FormatBytes(int64(v))
	case KindInt:
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Range describes the allowed values in words, e.g. "64KiB..64MiB".
func (d *Param) Range() string {
	switch d.Kind {
	case KindChoice:
		vals := make([]string, len(d.Choices))
		for i, c := range d.Choices {
			vals[i] = c.Value
		}
		return "one of " + strings.Join(vals, ", ")
	case KindBool:
		return "true or false"
	}
	r := d.Format(d.Min) + ".." + d.Format(d.Max)
	switch {
	case d.Pow2:
		r += ", a power-of-two number of " + d.grainName()
	case d.Step > 0:
		r += ", whole " + d.grainName()
	}
	return r
}

// Defaults returns every parameter at its default value.
func (s *Spec) Defaults() (Params, error) {
	p := make(Params, len(s.Params))
	for i := range s.Params {
		d := &s.Params[i]
		v, err := d.Parse(d.Default)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: bad default: %w", s.ID, err)
		}
		p[d.Name] = v
	}
	return p, nil
}

// Param returns the declaration of the named parameter, or nil.
func (s *Spec) Param(name string) *Param {
	for i := range s.Params {
		if s.Params[i].Name == name {
			return &s.Params[i]
		}
	}
	return nil
}

// Set parses text for the named parameter into p.
func (s *Spec) Set(p Params, name, text string) error {
	d := s.Param(name)
	if d == nil {
		names := make([]string, len(s.Params))
		for i := range s.Params {
			names[i] = s.Params[i].Name
		}
		return fmt.Errorf("%s: unknown parameter for scenario %s; known: %s", name, s.ID, strings.Join(names, ", "))
	}
	v, err := d.Parse(text)
	if err != nil {
		return err
	}
	p[name] = v
	return nil
}

// ParseBytes reads a size such as "4MiB", "64k", "512" into bytes
// (bytesize.Parse: every unit binary).
func ParseBytes(s string) (float64, error) { return bytesize.Parse(s) }

// FormatBytes prints n with the largest binary unit that divides it exactly
// (bytesize.Format, which the hardware packages use for their messages).
func FormatBytes(n int64) string { return bytesize.Format(n) }

// HardwarePrefix starts the name of a hardware override: "hw.<path>" sets
// the preset's parameter at path (model/platform's schema, in its unit)
// for one run, as the uncertainty bands do. A run with any is not at the
// published setting.
const HardwarePrefix = "hw."

// Hardware returns p's hardware overrides by path (without the prefix),
// or nil.
func (p Params) Hardware() map[string]float64 {
	var out map[string]float64
	for k, v := range p {
		if path, ok := strings.CutPrefix(k, HardwarePrefix); ok {
			if out == nil {
				out = map[string]float64{}
			}
			out[path] = v.Num
		}
	}
	return out
}

// SplitHardware splits p's hardware overrides into the board's (preset
// schema paths) and the scenario's own constants ("<id>.<name>", see
// Spec.Overridable), each by path, or nil.
func (p Params) SplitHardware(id string) (board, own map[string]float64) {
	for path, v := range p.Hardware() {
		m := &board
		if strings.HasPrefix(path, id+".") {
			m = &own
		}
		if *m == nil {
			*m = map[string]float64{}
		}
		(*m)[path] = v
	}
	return board, own
}

// AtDefaults reports whether every parameter of p has its default value
// (the setting the scenario's published figures were measured at) and no
// hardware is overridden.
func (s *Spec) AtDefaults(p Params) bool {
	def, err := s.Defaults()
	if err != nil || len(p.Hardware()) > 0 {
		return false
	}
	for _, d := range s.Params {
		if p[d.Name] != def[d.Name] {
			return false
		}
	}
	return true
}

// Held lists the parameters of p but the varied ones, "name=value" in
// the spec's order: what a chart or sweep of the varied ones holds fixed.
func (s *Spec) Held(p Params, varied ...string) []string {
	var out []string
	for _, d := range s.Params {
		if !slices.Contains(varied, d.Name) {
			if v, ok := p[d.Name]; ok {
				text := v.Text
				if text == "" {
					text = strconv.FormatFloat(v.Num, 'g', -1, 64)
				}
				out = append(out, d.Name+"="+text)
			}
		}
	}
	return out
}

// Resolve merges p over the defaults and checks it, for a scenario's Run:
// a name the spec does not declare is an error (the alphabetically first,
// so the message does not depend on map order), and every given value is
// validated again, because Params may come from code rather than the URL
// codec. A value without text is checked by its number. Hardware
// overrides ("hw.<path>", for a scenario with a preset) are kept as given:
// the run checks them against the preset's schema.
func (s *Spec) Resolve(p Params) (Params, error) {
	full, err := s.Defaults()
	if err != nil {
		return nil, err
	}
	unknown := ""
	for k, v := range p {
		if strings.HasPrefix(k, HardwarePrefix) && s.OnBoard {
			if math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
				return nil, fmt.Errorf("%s: %v is not a number", k, v.Num)
			}
			full[k] = v // checked by the preset's schema when the run builds its machine
			continue
		}
		if s.Param(k) == nil && (unknown == "" || k < unknown) {
			unknown = k
		}
	}
	if unknown != "" {
		return nil, fmt.Errorf("%s: unknown parameter for scenario %s", unknown, s.ID)
	}
	for i := range s.Params {
		d := &s.Params[i]
		v, ok := p[d.Name]
		if !ok {
			continue
		}
		text := v.Text
		if text == "" {
			switch d.Kind {
			case KindBool:
				text = strconv.FormatBool(v.Num != 0)
			case KindChoice:
			default:
				text = d.Format(v.Num)
			}
		}
		pv, err := d.Parse(text)
		if err != nil {
			return nil, err
		}
		full[d.Name] = pv
	}
	return full, nil
}

// Choices builds a choice list from value, label pairs.
func Choices(kv ...string) []Choice {
	out := make([]Choice, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, Choice{Value: kv[i], Label: kv[i+1]})
	}
	return out
}

// EchoMax is the most characters of a refused value a message repeats.
const EchoMax = 64

// Echo is text as a message repeats it: quoted, and cut to EchoMax
// characters ("…" and the full length after it) so that a 100 KB value
// makes a short message.
func Echo(text string) string {
	r := []rune(text)
	if len(r) <= EchoMax {
		return strconv.Quote(text)
	}
	return strconv.Quote(string(r[:EchoMax])) + "… (" + strconv.Itoa(len(r)) + " characters)"
}
