package scenario

// Row is one line of an A/B metrics table: the metric on both sides and the
// published figures that apply to what is shown.
type Row struct {
	Name, Label, Unit, Group string
	A, B                     float64
	HasA, HasB               bool
	Check                    bool // a correctness check (zero when correct)
	Refs                     []RowRef
}

// RowRef is a published figure beside a row, with the simulated value it
// compares with.
type RowRef struct {
	Reference
	Side string  // "A", "B" or "A/B" for a pair figure
	Got  float64 // the simulated figure
	OK   bool    // Got is defined and within the reference's tolerance
}

// Compare lines up the metrics and checks of a and b (A's order first, then
// what only B reports) with the spec's references. Published figures were
// measured at one setting, the spec's defaults, so references attach only
// when params are the defaults; a pair reference applies only when a and b
// run the spec's default A/B pair, in either order.
func Compare(spec *Spec, params Params, a, b *Result) []Row {
	published := spec != nil && spec.AtDefaults(params)
	var rows []Row
	seen := map[string]bool{}
	add := func(m Metric, check bool) {
		if seen[m.Name] {
			return
		}
		seen[m.Name] = true
		r := Row{Name: m.Name, Label: m.Label, Unit: m.Unit, Group: m.Group, Check: check}
		if a != nil {
			r.A, r.HasA = a.Metric(m.Name)
		}
		if b != nil {
			r.B, r.HasB = b.Metric(m.Name)
		}
		if published {
			r.Refs = rowRefs(spec, a, b, &r)
		}
		rows = append(rows, r)
	}
	for _, res := range []*Result{a, b} {
		if res == nil {
			continue
		}
		for _, m := range res.Metrics {
			add(m, false)
		}
		for _, m := range res.Checks {
			add(m, true)
		}
	}
	return rows
}

func rowRefs(spec *Spec, a, b *Result, r *Row) []RowRef {
	var out []RowRef
	for _, ref := range spec.References {
		if ref.Metric != r.Name {
			continue
		}
		rr := RowRef{Reference: ref}
		switch {
		case ref.Policy == "":
			if a == nil || b == nil || !r.HasA || !r.HasB {
				continue
			}
			va, vb := r.A, r.B
			switch {
			case a.Policy == spec.DefaultA && b.Policy == spec.DefaultB:
			case a.Policy == spec.DefaultB && b.Policy == spec.DefaultA:
				va, vb = vb, va
			default:
				continue
			}
			rr.Side = "A/B"
			rr.Got, rr.OK = ref.Pair.Of(va, vb)
		case a != nil && ref.Policy == a.Policy && r.HasA:
			rr.Side, rr.Got, rr.OK = "A", r.A, true
		case b != nil && ref.Policy == b.Policy && r.HasB:
			rr.Side, rr.Got, rr.OK = "B", r.B, true
		default:
			continue
		}
		rr.OK = rr.OK && ref.Within(rr.Got)
		out = append(out, rr)
	}
	return out
}
