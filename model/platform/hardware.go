package platform

import "github.com/dmaviz/dmaviz/model/mmu"

// Hardware is the schema as scenario.Hardware: the "hw.<path>" keys of
// links and of the CLI's --url.
type Hardware struct{}

// Paths lists the paths the named preset's board has or can have, in
// schema order: an L3's geometry once it has a size, a walk cache's ways
// once it has entries, but no SMMU on a board without one.
func (Hardware) Paths(preset string) []string {
	p, err := find(preset)
	if err != nil {
		return nil
	}
	b := p.board()
	b.L3.Size = max(b.L3.Size, 1) // a probe: every unit a value can add
	for _, w := range []*mmu.Config{&b.TLB.Walk, smmuWalk(&b)} {
		for l := range w.WalkCache {
			w.WalkCache[l].Entries = max(w.WalkCache[l].Entries, 1)
		}
	}
	var out []string
	for i := range schema {
		if schema[i].applies(&b) {
			out = append(out, schema[i].path)
		}
	}
	return out
}

// Parse is ParseText.
func (Hardware) Parse(path, text string) (float64, error) { return ParseText(path, text) }

// Format is FormatText.
func (Hardware) Format(path string, v float64) string { return FormatText(path, v) }

// Check builds the board (BoardWith), validates it and reads back the
// values at hw's paths.
func (Hardware) Check(preset string, hw map[string]float64) (map[string]float64, error) {
	b, err := BoardWith(preset, hw)
	if err == nil {
		err = b.Validate()
	}
	if err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(hw))
	for path := range hw {
		out[path], _ = b.Value(path)
	}
	return out, nil
}

// Field is the preset's value at path and the path's unit.
func (Hardware) Field(preset, path string) (float64, string, bool) {
	b, err := LookupBoard(preset)
	if err != nil {
		return 0, "", false
	}
	v, ok := b.Value(path)
	return v, Unit(path), ok
}

// smmuWalk is the SMMU's walk caches (a spare value without an SMMU).
func smmuWalk(b *Board) *mmu.Config {
	if b.SMMU == nil {
		return &mmu.Config{}
	}
	return &b.SMMU.WalkCache
}
