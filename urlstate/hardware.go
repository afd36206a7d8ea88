package urlstate

import (
	"net/url"
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// The board in a link: a scenario on a board (Spec.OnBoard) takes
// "hw.<path>=<value>" keys, overrides of its preset's board, each value
// with the path's unit ("hw.l2.size=2MiB&hw.dram.latency=95ns"); the
// Registry's Hardware reads them. The board is checked with every
// override applied (ways 0, an L2 smaller than the L1 are refused); a
// value the board refuses is left out, its path keeping the preset's
// value, and a message names the key and what is allowed. Encode writes
// the overrides in the board's order, each in its canonical text, so a
// shared link reproduces the board.

// presetParam is the parameter naming a scenario's board.
const presetParam = "preset"

// isHardwareKey reports whether key is a "hw.<path>" key.
func isHardwareKey(key string) bool { return strings.HasPrefix(key, scenario.HardwarePrefix) }

// decodeHardware reads v's hw.* keys into params (the preset already
// set), reporting each bad one through bad.
func (c *Codec) decodeHardware(spec *scenario.Spec, v url.Values, params scenario.Params, get func(string) (string, bool), bad func(string, string, ...any)) {
	var keys []string
	for k := range v {
		if isHardwareKey(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	hw := c.Registry.Hardware
	if !spec.OnBoard || hw == nil {
		bad(keys[0], "%s: scenario %s runs on no board, so it takes no hw.* keys", echoKey(keys[0]), spec.ID)
		return
	}
	preset := params.Text(presetParam)
	paths := hw.Paths(preset)
	order := map[string]int{}
	for i, p := range paths {
		order[p] = i
	}
	type over struct {
		key, path string
		v         float64
	}
	var given []over
	for _, k := range keys {
		text, _ := get(k)
		path := strings.TrimPrefix(k, scenario.HardwarePrefix)
		val, err := hw.Parse(path, text)
		switch {
		case err != nil:
			bad(k, "hw.%v; using %s's value", err, preset)
		case !hasPath(order, path):
			bad(k, "%s: %s's board has no such unit", echoKey(k), preset)
		default:
			given = append(given, over{k, path, val})
		}
	}
	// The board's order: a clock before the cycle counts given with it.
	sort.SliceStable(given, func(i, j int) bool { return order[given[i].path] < order[given[j].path] })
	all := map[string]float64{}
	for _, o := range given {
		all[o.path] = o.v
	}
	held, err := hw.Check(preset, all)
	if err != nil {
		// Keep what the board takes, in order; refuse the rest by name.
		all = map[string]float64{}
		for _, o := range given {
			all[o.path] = o.v
			if _, err := hw.Check(preset, all); err != nil {
				delete(all, o.path)
				bad(o.key, "%v; using %s's value", scenario.HardwareError(err), preset)
			}
		}
		held, _ = hw.Check(preset, all)
	}
	for _, o := range given {
		if v, ok := held[o.path]; ok {
			params[o.key] = scenario.Value{Num: v, Text: hw.Format(o.path, v)}
		}
	}
}

func hasPath(order map[string]int, path string) bool {
	_, ok := order[path]
	return ok
}

// encodeHardware writes st's hw.* keys (Hardware).
func (c *Codec) encodeHardware(st State, add func(k, v string)) {
	for _, kv := range c.Hardware(st) {
		add(kv[0], kv[1])
	}
}

// Hardware lists st's board overrides as key and canonical text, in the
// board's order (sorted by key without a Registry.Hardware).
func (c *Codec) Hardware(st State) [][2]string {
	var keys []string
	for k := range st.Params {
		if isHardwareKey(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var hw scenario.Hardware
	if c.Registry != nil {
		hw = c.Registry.Hardware
	}
	if hw != nil {
		rank := map[string]int{}
		for i, p := range hw.Paths(st.Params.Text(presetParam)) {
			rank[scenario.HardwarePrefix+p] = i + 1
		}
		sort.SliceStable(keys, func(i, j int) bool { return rank[keys[i]] < rank[keys[j]] })
	}
	out := make([][2]string, len(keys))
	for i, k := range keys {
		v := st.Params[k]
		text := v.Text
		if hw != nil {
			text = hw.Format(strings.TrimPrefix(k, scenario.HardwarePrefix), v.Num)
		}
		out[i] = [2]string{k, text}
	}
	return out
}
