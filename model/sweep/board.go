package sweep

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// ParseVaryOn is ParseVary that also reads a board field of a scenario on
// a board (Spec.OnBoard): "hw.<path>=lo..hi:xF", ":+S" or a list, each
// value in the path's unit as a link writes it
// ("hw.l2.size=256KiB..4MiB:x2", "hw.l2.ways=4..16:+4",
// "hw.dram.latency=80ns..160ns:+20ns"). hw reads the values; every one is
// checked on the board of base's preset with base's other overrides, so
// an impossible board is refused naming the key before anything runs.
func ParseVaryOn(spec *scenario.Spec, hw scenario.Hardware, base scenario.Params, text string) (Axis, error) {
	key, val, _ := strings.Cut(text, "=")
	key = strings.TrimSpace(key)
	path, isBoard := strings.CutPrefix(key, scenario.HardwarePrefix)
	if !isBoard {
		return ParseVary(spec, text)
	}
	if !spec.OnBoard || hw == nil {
		return Axis{}, fmt.Errorf("--vary %s: scenario %s runs on no board, so it has no hw.* fields", key, spec.ID)
	}
	if strings.TrimSpace(val) == "" {
		return Axis{}, fmt.Errorf("--vary %q: want %s=lo..hi:x2, %s=lo..hi:+step or %s=a,b,c", text, key, key, key)
	}
	preset := base.Text("preset")
	if _, err := hw.Parse(path, "0"); err != nil { // every known path reads 0
		return Axis{}, fmt.Errorf("--vary hw.%w", err)
	}
	held, unit, ok := hw.Field(preset, path)
	if !ok {
		return Axis{}, fmt.Errorf("--vary %s: %s's board has no such unit", key, preset)
	}
	if v, given := base[key]; given {
		held = v.Num
	}
	d := scenario.Param{Name: key, Label: path, Unit: unit, Kind: scenario.KindFloat, Max: math.MaxFloat64}
	switch unit {
	case "B":
		d.Kind = scenario.KindBytes
	case "", "lines", "pages":
		d.Kind = scenario.KindInt
	}
	others := base.Hardware()
	if others == nil {
		others = map[string]float64{}
	}
	parse := func(text string) (scenario.Value, error) {
		v, err := hw.Parse(path, text)
		if err != nil {
			return scenario.Value{}, fmt.Errorf("hw.%w", err)
		}
		others[path] = v
		got, err := hw.Check(preset, others)
		if err != nil {
			msg := scenario.HardwareError(err).Error()
			if strings.HasPrefix(msg, key+": ") {
				return scenario.Value{}, errors.New(msg)
			}
			return scenario.Value{}, fmt.Errorf("%s: %s gives %s", key, hw.Format(path, v), msg)
		}
		return scenario.Value{Num: got[path], Text: hw.Format(path, got[path])}, nil
	}
	step := func(s string) (float64, error) { return hw.Parse(path, s) }
	ax, err := parseAxis(Axis{Param: d}, key, val, parse, step)
	if err != nil {
		return Axis{}, err
	}
	ax.Held = &scenario.Value{Num: held, Text: hw.Format(path, held)}
	return ax, nil
}

// hardwareKeys lists the board fields the points set (varied or held),
// sorted: the table's columns after the scenario's parameters.
func (t *Table) hardwareKeys() []string {
	p := t.Base
	if len(t.Points) > 0 {
		p = t.Points[0].Params
	}
	var out []string
	for k := range p {
		if strings.HasPrefix(k, scenario.HardwarePrefix) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
