package platform

// Hardware is the schema as scenario.Hardware: the "hw.<path>" keys of
// links and of the CLI's --url.
type Hardware struct{}

// Paths lists the paths of the named preset's board in schema order.
func (Hardware) Paths(preset string) []string {
	p, err := find(preset)
	if err != nil {
		return nil
	}
	b := p.board()
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
