package site

import (
	"fmt"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/report"
)

// maxHazardsShown bounds the list per side; the rest are counted.
const maxHazardsShown = 12

// Hazards lists failed checks and located hazards of both sides, and for a
// bug policy that produced none, the run's one sentence why
// (scenario.Result.NoHazard) instead of "No hazards".
type Hazards struct {
	Results [2]*scenario.Result
	// Masked keeps the list back (a lesson's question before its reveal).
	Masked  bool
	AttrMap vugu.AttrMap
}

// masked is the line that stands for the list while Masked.
func (c *Hazards) masked() string { return "Hazards: " + render.MaskedNote + "." }

// current reports whether both sides have a result to check.
func (c *Hazards) current() bool { return c.Results[0] != nil && c.Results[1] != nil }

type hazardLine struct{ Text, Class string }

func (c *Hazards) items() []hazardLine {
	if c.Masked {
		return nil
	}
	var out []hazardLine
	for side, r := range c.Results {
		if r == nil {
			continue
		}
		name := [2]string{"A", "B"}[side]
		for _, m := range r.Checks {
			if m.Value != 0 {
				out = append(out, hazardLine{fmt.Sprintf("%s (%s): %s = %s %s", name, r.Policy, m.Name, report.FormatNumber(m.Value), m.Unit), "check"})
			}
		}
		for i, h := range r.Hazards {
			if i == maxHazardsShown {
				out = append(out, hazardLine{fmt.Sprintf("%s: … and %d more", name, len(r.Hazards)-i), "more"})
				break
			}
			kind, size := h.AddrKind, ""
			if kind == "" {
				kind = "PA"
			}
			if h.Bytes != 0 { // a fault names an address, not a range
				size = ", " + bytesText(h.Bytes)
			}
			out = append(out, hazardLine{fmt.Sprintf("%s at %v: %s %#x%s: %s", name, h.T, kind, h.Addr, size, h.Cause), "hazard"})
		}
		if r.NoHazard != "" {
			out = append(out, hazardLine{fmt.Sprintf("%s (%s, a bug policy) shows no hazard at this setting: %s", name, r.Policy, r.NoHazard), "why"})
		}
	}
	return out
}

// bytesText prints a byte count with its unit ("64 B", "1 KiB + 64 B" is
// not attempted: exact multiples of KiB and MiB take the binary unit).
func bytesText(n int64) string {
	switch {
	case n != 0 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n != 0 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
