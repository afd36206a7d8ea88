package platform

import (
	"fmt"
	"sort"

	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Board is a preset's whole hardware: the machine's configuration and,
// where the SoC has one in the model, its SMMU.
type Board struct {
	soc.Config
	// SMMU is the SoC's SMMU and the path below it; nil when the preset
	// has none in the model.
	SMMU *smmu.Config
}

// Override sets one schema parameter of a board to a value in the
// parameter's unit (a what-if, an uncertainty extreme).
type Override struct {
	Path  string
	Value float64
}

// Apply sets each override on b in order. The error names the path and
// what it allows (an unknown path lists a few known ones).
func (b *Board) Apply(over []Override) error {
	for _, o := range over {
		p := paramByPath(o.Path)
		if p == nil {
			return fmt.Errorf("hw.%w", unknownPath(o.Path))
		}
		if !p.applies(b) {
			return fmt.Errorf("hw.%s: %s has no such unit", o.Path, b.Name)
		}
		if err := p.put(b, o.Value); err != nil {
			return fmt.Errorf("hw.%s: %w", o.Path, err)
		}
	}
	return nil
}

// Value returns b's value of the parameter at path, in its unit; ok is
// false for an unknown path or one b does not have.
func (b *Board) Value(path string) (v float64, ok bool) {
	p := paramByPath(path)
	if p == nil || !p.applies(b) {
		return 0, false
	}
	return p.get(b), true
}

// LookupBoard returns a fresh copy of the named preset's board, or an
// error naming the allowed presets.
func LookupBoard(name string) (Board, error) { return BoardWith(name, nil) }

// BoardWith returns the named preset's board with the overrides hw
// (path -> value in the path's unit, as scenario.Params.Hardware gives
// them) applied in schema order, so a clock is set before the cycle
// counts given with it. The error names the first bad path.
func BoardWith(name string, hw map[string]float64) (Board, error) {
	p, err := find(name)
	if err != nil {
		return Board{}, err
	}
	b := p.board()
	if len(hw) == 0 {
		return b, nil
	}
	var over []Override
	for i := range schema {
		if v, ok := hw[schema[i].path]; ok {
			over = append(over, Override{schema[i].path, v})
		}
	}
	if len(over) < len(hw) { // a path the schema does not have: name it
		var paths []string
		for path := range hw {
			paths = append(paths, path)
		}
		sort.Strings(paths)
		for _, path := range paths {
			if paramByPath(path) == nil {
				over = append([]Override{{path, hw[path]}}, over...)
				break
			}
		}
	}
	if err := b.Apply(over); err != nil {
		return Board{}, err
	}
	return b, nil
}

// LookupWith is the machine configuration of BoardWith.
func LookupWith(name string, hw map[string]float64) (soc.Config, error) {
	b, err := BoardWith(name, hw)
	return b.Config, err
}

// Parameters lists every parameter of the named preset's board, in schema
// order, with its value, unit and provenance.
func Parameters(name string) ([]provenance.Param, error) {
	p, err := find(name)
	if err != nil {
		return nil, err
	}
	b := p.board()
	var out []provenance.Param
	for i := range schema {
		s := &schema[i]
		if !s.applies(&b) {
			continue
		}
		v := s.get(&b)
		e := p.entry(s.path)
		if e.Path == "" {
			e.Path = s.path // no provenance: Kind stays 0 (the completeness test fails)
		}
		out = append(out, provenance.Param{Entry: e, Unit: s.unit, Value: v, Text: s.text(v)})
	}
	return out, nil
}

// Provenance returns the named preset's provenance entries in table order
// (nil for an unknown preset).
func Provenance(name string) []provenance.Entry {
	p, err := find(name)
	if err != nil {
		return nil
	}
	return append([]provenance.Entry(nil), p.prov()...)
}

// FittedTo returns the paths of the named preset's parameters fitted to
// the figure with the given id, in table order.
func FittedTo(name, figure string) []string {
	var out []string
	for _, e := range Provenance(name) {
		if e.Kind == provenance.Fitted && e.Figure == figure {
			out = append(out, e.Path)
		}
	}
	return out
}

// FormatValue prints v in unit u (provenance.FormatValue).
func FormatValue(v float64, unit string) string { return provenance.FormatValue(v, unit) }
