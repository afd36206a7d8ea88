package app

import (
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// Hardware is what the panel reads of the boards beyond the codec's
// (Registry.Hardware parses, formats and checks a board's values): each
// preset's parameters with their provenance. The page passes
// platform.Parameters (the panel reaches no hardware package).
type Hardware struct {
	// Params lists a preset's parameters in schema order, each with its
	// value, unit and provenance.
	Params func(preset string) ([]provenance.Param, error)
}

// BoardField is one hardware value as the Board section shows it.
type BoardField struct {
	Param provenance.Param // the preset's value and its provenance
	Key   string           // the override's key, "hw.<path>"
	Text  string           // what the field shows: the user's value or the preset's
	Own   bool             // the value is the user's (an override of the preset's)
	Err   string           // why the text typed was refused
	Fixed bool             // not editable: a scenario constant
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
// unit in schema order, then the scenario's own constants (shown, not
// edited: a link's hw.* keys are the board's), each with its provenance,
// the value shown and whether it is the user's.
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
			g.Fields = append(g.Fields, a.boardField(c, true))
		}
		out = append(out, g)
	}
	return out
}

func (a *App) boardField(p provenance.Param, fixed bool) BoardField {
	key := scenario.HardwarePrefix + p.Path
	f := BoardField{Param: p, Key: key, Text: p.Text, Err: a.Errors[key], Fixed: fixed}
	if hw := a.Registry.Hardware; hw != nil && !fixed {
		f.Text = hw.Format(p.Path, p.Value) // as the user's values and links write it
	}
	if v, ok := a.State.Params[key]; ok {
		f.Own, f.Text = true, v.Text
	}
	if t, ok := a.Texts[key]; ok && f.Err != "" {
		f.Text = t // the refused text stays in the field beside its message
	}
	return f
}

// boardParam finds the preset's parameter at path.
func (a *App) boardParam(path string) (provenance.Param, bool) {
	for _, q := range a.PresetParams() {
		if q.Path == path {
			return q, true
		}
	}
	return provenance.Param{}, false
}

// SetBoard takes the text typed for the board's value at path, with its
// unit or without ("2MiB", "95ns", "1.2GHz", "plru"). A value the board
// takes becomes the override "hw.<path>" (none when it is the preset's
// own) and a run is due if anything changed; a refused one stays in the
// field with a message naming the field and what it allows, and the runs
// keep the value they had. The board is checked with every override, as
// a link's are (Registry.Hardware).
func (a *App) SetBoard(path, text string) bool {
	key := scenario.HardwarePrefix + path
	hw := a.Registry.Hardware
	p, ok := a.boardParam(path)
	if !ok || hw == nil || a.Spec == nil || !a.Spec.OnBoard {
		a.Texts[key], a.Errors[key] = text, key+": not a value of "+a.Preset()+"'s board"
		return false
	}
	v, err := hw.Parse(path, text)
	var held map[string]float64
	if err == nil {
		over := a.boardOverrides()
		over[path] = v
		held, err = hw.Check(a.Preset(), over)
	}
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, scenario.HardwarePrefix) {
			msg = scenario.HardwarePrefix + msg // "l2.ways: ..." named as the link names it
		}
		a.Texts[key], a.Errors[key] = text, msg
		return false
	}
	delete(a.Errors, key)
	delete(a.Texts, key)
	v = held[path]
	shown := hw.Format(path, v)
	old, had := a.State.Params[key]
	if shown == hw.Format(path, p.Value) {
		delete(a.State.Params, key)
		return had
	}
	a.State.Params[key] = scenario.Value{Num: v, Text: shown}
	return !had || old != a.State.Params[key]
}

// boardOverrides is the user's board values by path.
func (a *App) boardOverrides() map[string]float64 {
	out := map[string]float64{}
	for k, v := range a.State.Params {
		if path, ok := strings.CutPrefix(k, scenario.HardwarePrefix); ok {
			out[path] = v.Num
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

// keepBoard keeps the user's values the newly chosen preset takes and
// drops the others (an SMMU value on a board without one, an L2 size its
// geometry refuses), each with a message; the refused texts of the
// previous preset go.
func (a *App) keepBoard() {
	for k := range a.Errors {
		if strings.HasPrefix(k, scenario.HardwarePrefix) {
			delete(a.Errors, k)
			delete(a.Texts, k)
		}
	}
	if _, ok := a.boardParam(a.headlineVary); !ok {
		a.headlineVary = "" // the chart varies the scenario's parameter again
	}
	hw := a.Registry.Hardware
	kept := map[string]float64{}
	for _, k := range a.hardwareKeys() {
		path := strings.TrimPrefix(k, scenario.HardwarePrefix)
		_, ok := a.boardParam(path)
		if ok && hw != nil {
			kept[path] = a.State.Params[k].Num
			if _, err := hw.Check(a.Preset(), kept); err != nil {
				delete(kept, path)
				ok = false
			}
		}
		if !ok {
			a.Messages = append(a.Messages, k+": "+a.Preset()+"'s board does not take "+a.State.Params.Text(k)+"; using its own value")
			delete(a.State.Params, k)
		}
	}
}
