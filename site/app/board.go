package app

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// Hardware is what the panel reads of the boards. The page passes
// model/platform's functions (the panel reaches no hardware package).
type Hardware struct {
	// Params lists a preset's parameters in schema order, each with its
	// value, unit and provenance (platform.Parameters).
	Params func(preset string) ([]provenance.Param, error)
	// Check refuses a board the machine cannot be built from: the preset
	// with the overrides hw (path -> value in the path's unit), naming the
	// path and what it allows. nil leaves the check to the run.
	Check func(preset string, hw map[string]float64) error
}

// BoardField is one hardware value as the Board section shows it.
type BoardField struct {
	Param provenance.Param // the preset's value and its provenance
	Key   string           // the override's key, "hw.<path>"
	Text  string           // what the field shows: the user's value or the preset's
	Own   bool             // the value is the user's (an override of the preset's)
	Err   string           // why the text typed was refused
	Takes string           // what the field takes, in words ("a size such as 2MiB")
	Fixed bool             // not editable: a scenario constant its runs do not take
}

// BoardGroup is one unit of the board (the clocks, the L2, a TLB, ...).
type BoardGroup struct {
	ID, Title string
	Fields    []BoardField
}

// groupTitles names the board's units by their path prefix.
var groupTitles = map[string]string{
	"clocks": "Clocks", "core": "Core", "l1d": "L1 data cache", "l2": "L2 cache", "l3": "L3 cache",
	"prefetch": "Prefetcher", "dram": "DRAM", "nc": "Normal-NC and Device path",
	"maint": "Cache maintenance and barriers", "tlb": "TLBs", "tlb.l1": "L1 data TLB",
	"tlb.l1i": "L1 instruction TLB", "tlb.l2": "L2 TLB", "tlb.trace": "Trace unit's TLB",
	"tlb.walk": "Walk caches", "mem": "Memory", "smmu": "SMMU", "smmu.tbu": "SMMU TBU",
	"smmu.tcu": "SMMU TCU", "smmu.bus": "SMMU bus",
}

// groupOf is the unit a path belongs to: its first part, or its first two
// for the TLBs and the SMMU's blocks ("tlb.l2.entries" is the L2 TLB's).
func groupOf(path string) string {
	parts := strings.Split(path, ".")
	if len(parts) >= 3 && (parts[0] == "tlb" || parts[0] == "smmu") {
		return parts[0] + "." + parts[1]
	}
	return parts[0]
}

// Preset is the board the runs use (the "preset" parameter).
func (a *App) Preset() string { return a.State.Params.Text("preset") }

// PresetParams is the current preset's parameters (nil without a preset,
// or when the page gave no Hardware), kept until the preset changes.
func (a *App) PresetParams() []provenance.Param {
	preset := a.Preset()
	if preset == "" || a.Hardware.Params == nil {
		return nil
	}
	if a.board.preset != preset {
		ps, _ := a.Hardware.Params(preset) // an unknown preset lists nothing; the run says why
		a.board.preset, a.board.params = preset, ps
	}
	return a.board.params
}

// boardCache is the last preset's parameters.
type boardCache struct {
	preset string
	params []provenance.Param
}

// BoardGroups is the Board section: the preset's parameters grouped by
// unit in schema order, then the scenario's own constants, each with its
// provenance, the value shown and whether it is the user's.
func (a *App) BoardGroups() []BoardGroup {
	var out []BoardGroup
	at := map[string]int{}
	for _, p := range a.PresetParams() {
		g := groupOf(p.Path)
		i, ok := at[g]
		if !ok {
			title := groupTitles[g]
			if title == "" {
				title = g
			}
			i, at[g] = len(out), len(out)
			out = append(out, BoardGroup{ID: g, Title: title})
		}
		out[i].Fields = append(out[i].Fields, a.boardField(p, false))
	}
	if a.Spec != nil && len(a.Spec.Constants) > 0 {
		g := BoardGroup{ID: a.Spec.ID, Title: "The scenario's own constants"}
		for _, c := range a.Spec.Constants {
			g.Fields = append(g.Fields, a.boardField(c, !a.overridable(c.Path)))
		}
		out = append(out, g)
	}
	return out
}

func (a *App) boardField(p provenance.Param, fixed bool) BoardField {
	key := scenario.HardwarePrefix + p.Path
	f := BoardField{Param: p, Key: key, Text: p.Text, Err: a.Errors[key], Takes: takes(&p), Fixed: fixed}
	if v, ok := a.State.Params[key]; ok {
		f.Own, f.Text = true, v.Text
	}
	if t, ok := a.Texts[key]; ok && f.Err != "" {
		f.Text = t // the refused text stays in the field beside its message
	}
	return f
}

// overridable reports whether the scenario's runs take the constant at
// path as a hardware override (Spec.Overridable).
func (a *App) overridable(path string) bool {
	for _, p := range a.Spec.Overridable {
		if p == path {
			return true
		}
	}
	return false
}

// boardParam finds the editable field at path: the preset's parameter or
// an overridable constant of the scenario.
func (a *App) boardParam(path string) (p provenance.Param, preset, ok bool) {
	for _, q := range a.PresetParams() {
		if q.Path == path {
			return q, true, true
		}
	}
	if a.Spec != nil && a.overridable(path) {
		for _, c := range a.Spec.Constants {
			if c.Path == path {
				return c, false, true
			}
		}
	}
	return provenance.Param{}, false, false
}

// SetBoard takes the text typed for the hardware value at path. A valid
// value becomes the override "hw.<path>" (none when it is the preset's
// own) and a run is due if anything changed; a refused one stays in the
// field with a message naming the field and what it allows, and the runs
// keep the value they had.
func (a *App) SetBoard(path, text string) bool {
	key := scenario.HardwarePrefix + path
	p, onBoard, ok := a.boardParam(path)
	if !ok || a.Spec == nil || !a.Spec.OnBoard {
		a.Texts[key], a.Errors[key] = text, key+": not a hardware value this scenario's runs take"
		return false
	}
	v, shown, err := ParseHardware(&p, text)
	if err == nil && onBoard && a.Hardware.Check != nil {
		hw := a.boardOverrides()
		hw[path] = v
		if err = a.Hardware.Check(a.Preset(), hw); err != nil && !strings.HasPrefix(err.Error(), scenario.HardwarePrefix) {
			err = fmt.Errorf("%s%w", scenario.HardwarePrefix, err) // "l2.ways: ..." names the field as the URL does
		}
	}
	if err != nil {
		a.Texts[key], a.Errors[key] = text, err.Error()
		return false
	}
	delete(a.Errors, key)
	delete(a.Texts, key)
	old, had := a.State.Params[key]
	if shown == formatHardware(&p, p.Value) {
		delete(a.State.Params, key)
		return had
	}
	a.State.Params[key] = scenario.Value{Num: v, Text: shown}
	return !had || old != a.State.Params[key]
}

// boardOverrides is the user's board values by path (the preset's
// parameters only; the scenario's constants are the run's to check).
func (a *App) boardOverrides() map[string]float64 {
	out := map[string]float64{}
	for k, v := range a.State.Params {
		if path, ok := strings.CutPrefix(k, scenario.HardwarePrefix); ok {
			if _, onBoard, _ := a.boardParam(path); onBoard {
				out[path] = v.Num
			}
		}
	}
	return out
}

// ResetBoard drops the user's value at path (path "" drops them all),
// with any refused text; it reports whether a run is due.
func (a *App) ResetBoard(path string) bool {
	changed := false
	for _, k := range a.hardwareKeys() {
		if path == "" || k == scenario.HardwarePrefix+path {
			delete(a.State.Params, k)
			changed = true
		}
	}
	for k := range a.Errors {
		if strings.HasPrefix(k, scenario.HardwarePrefix) && (path == "" || k == scenario.HardwarePrefix+path) {
			delete(a.Errors, k)
			delete(a.Texts, k)
		}
	}
	return changed
}

// BoardOwn is how many of the board's values are the user's.
func (a *App) BoardOwn() int { return len(a.hardwareKeys()) }

// hardwareKeys lists the overrides' keys, sorted.
func (a *App) hardwareKeys() []string {
	var out []string
	for k := range a.State.Params {
		if strings.HasPrefix(k, scenario.HardwarePrefix) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// keepBoard drops the overrides of values the current preset does not
// have (another preset was chosen: an SMMU field on a board without one)
// and the refused texts of the previous one.
func (a *App) keepBoard() {
	for _, k := range a.hardwareKeys() {
		if _, _, ok := a.boardParam(strings.TrimPrefix(k, scenario.HardwarePrefix)); !ok {
			delete(a.State.Params, k)
		}
	}
	for k := range a.Errors {
		if strings.HasPrefix(k, scenario.HardwarePrefix) {
			delete(a.Errors, k)
			delete(a.Texts, k)
		}
	}
}
