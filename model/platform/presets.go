// Package platform holds named hardware presets: complete boards (a
// soc.Config and, for the LS2088A, its SMMU) for real SoCs.
//
// Every hardware parameter has a dotted path in the schema (paths.go: the
// unit, then the field: "l2.latency", "maint.dsb", "smmu.tbu.tlb_entries"),
// with its unit and a getter and setter on a Board. A parameter's value is
// written once, in the preset's build function; its provenance once, in
// the preset's table. Nothing else repeats either (no provenance comments
// beside the values: a test refuses them).
//
// A preset declares, in its own files:
//
//   - a build function returning the soc.Config (and, with an SMMU, a
//     function returning the smmu.Config): values only;
//   - a provenance table, var <name>Provenance = []provenance.Entry{...}
//     (prov_<name>.go), with exactly one entry per schema path the board
//     has, in any order, each one of
//     measured(path, "<document> <section or table>: '<quote>'"),
//     derived(path, "<formula over other paths or sourced constants>"),
//     assumed(path, low, high, "<why>") with the range in the path's unit
//     (enumerations by their number: policy 0 lru, 1 plru, 2 random;
//     flags 0/1) holding the value, or
//     fitted(path, Fig..., "<how it was solved>") naming the published
//     figure's id (scenario.FigureID; the Fig constants in figures.go);
//   - a Preset row in presets below (name, title, the published figures
//     in words, build, smmu, table).
//
// Rules the tests enforce: every path has one complete entry and no entry
// names a path the board lacks; an assumed value lies in its range; a
// fitted entry names a figure of a scenario whose default preset this is;
// no figure has two fitted parameters (over presets and scenario
// constants together). A figure a parameter was fitted to is calibrated,
// not predicted. A new soc.Config or smmu.Config field needs a schema path
// (a test fails otherwise). `dmaviz preset show NAME` prints the table.
package platform

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Preset is a named configuration.
type Preset struct {
	Name  string
	Title string
	// Figure names the published measurements made on this hardware, in
	// words; which parameter is fitted to which is the table's.
	Figure string
	build  func() soc.Config
	// smmu builds the SoC's SMMU (nil: none in the model).
	smmu func() smmu.Config
	// SMMUs says, with its source, which SMMUs the SoC has when the model
	// has none for it (smmu nil), as a clause after "<name> has none in
	// the model: ": what a scenario that needs an MMU-500 tells a user.
	SMMUs string
	// table is the provenance of every parameter (one entry per schema
	// path the board has).
	table []provenance.Entry
	// Trace lists the self-hosted trace units the preset's core has that
	// write through its translation ("TRBE", "SPE"), and TraceSource says
	// where that comes from. A scenario writing through a unit the core
	// lacks runs on the core's TLBs as a what-if and says so.
	Trace       []string
	TraceSource string
}

var presets = []Preset{
	{Name: "juno-r2", Title: "Arm Juno r2, Cortex-A53 cluster",
		Figure: "ETR bounce buffer copy, 4 MiB: 8148.32 us coherent; 2463.98 us (the patch) and 2525.42 us (as merged) cacheable + sync", build: junoR2, table: junoR2Provenance,
		SMMUs: junoSMMUs, TraceSource: "the Cortex-A53 implements Armv8.0-A (" + traceArch + ")"},
	{Name: "juno-r2-a72", Title: "Arm Juno r2, Cortex-A72 cluster",
		Figure: "none: the ETR figure does not say which of the board's clusters ran it", build: junoR2A72, table: junoR2A72Provenance,
		SMMUs: junoSMMUs, TraceSource: "the Cortex-A72 implements Armv8.0-A (" + traceArch + ")"},
	{Name: "dimensity-9500", Title: "MediaTek Dimensity 9500, big core at 2.6 GHz",
		Figure: "dma_map_sg -64.61 %, dma_unmap_sg -66.60 % (2560 entries x 64 lines)", build: dimensity9500, table: dimensity9500Provenance,
		SMMUs: "no source found describes its SMMUs: MediaTek's SoCs put MediaTek's own IOMMU (M4U, Linux drivers/iommu/mtk_iommu.c) in front of their multimedia masters, and none names an MMU-500 in the Dimensity 9500",
		Trace: []string{"TRBE", "SPE"}, TraceSource: "MODEL.md: 'The C1-Ultra manual gives SPE and TRBE each a one-entry L1 TLB'"},
	{Name: "neoverse-n1", Title: "Arm Neoverse N1 (Cortex-A76 class) server core",
		Figure: "none", build: neoverseN1, table: neoverseN1Provenance,
		SMMUs: "an N1 system's SMMUs are SMMUv3s (Arm MMU-600) in front of PCIe, as Arm's N1 SDP device tree lists (TF-A fdts/n1sdp-multi-chip.dts: \"arm,smmu-v3\"; the Graviton2 this preset follows is not described in the sources found), and an SMMUv3 has no stream-match registers, S2CRs or sACR: a stream bypasses by its stream table entry (STE.Config)",
		Trace: []string{"SPE"}, TraceSource: "the Neoverse N1 implements Armv8.2-A with the Statistical Profiling Extension (Neoverse N1 TRM); TRBE is Armv9's FEAT_TRBE"},
	{Name: "ls2088a", Title: "NXP QorIQ LS2088A, Cortex-A72 cores, MMU-500",
		Figure: "SMMU bypass read latency about 140 -> about 50 platform cycles (SMTNMB_TLBEN)", build: ls2088a,
		smmu: LS2088ASMMU, table: ls2088aProvenance,
		TraceSource: "the Cortex-A72 implements Armv8.0-A (" + traceArch + ")"},
}

// junoSMMUs are the Juno r2's SMMUs (both of its clusters' presets).
const junoSMMUs = "its SMMUs are Arm MMU-401s (SMMUv1) in front of the ETR, PCIe, the DMA-330, the HDLCDs and USB, and an MMU-400 for the GPU (Linux arch/arm64/boot/dts/arm/juno-base.dtsi: \"arm,mmu-401\", \"arm,smmu-v1\"), and SMTNMB_TLBEN is an MMU-500 bit (Linux: ARM_MMU500_ACR_SMTNMB_TLBEN, set only by arm_mmu500_reset)"

// traceArch is why an Armv8.0 core has neither trace unit.
const traceArch = "SPE is Armv8.2's optional FEAT_SPE, TRBE Armv9's FEAT_TRBE"

// TraceUnit reports whether the named preset's core has the trace unit
// ("TRBE" or "SPE"), with the source of the answer (false, "" for an
// unknown preset).
func TraceUnit(preset, unit string) (has bool, source string) {
	p, err := find(preset)
	if err != nil {
		return false, ""
	}
	return slices.Contains(p.Trace, unit), p.TraceSource
}

// WithSMMU returns the names of the presets whose SMMU the model has,
// sorted.
func WithSMMU() []string {
	var out []string
	for _, p := range Presets() {
		if p.smmu != nil {
			out = append(out, p.Name)
		}
	}
	return out
}

// NameTitles returns each preset's name and title in turn, sorted by
// name: a scenario's preset choices (scenario.Choices takes value, label
// pairs).
func NameTitles() []string {
	var out []string
	for _, p := range Presets() {
		out = append(out, p.Name, p.Title)
	}
	return out
}

// Names returns the preset names, sorted.
func Names() []string {
	out := make([]string, len(presets))
	for i, p := range presets {
		out[i] = p.Name
	}
	sort.Strings(out)
	return out
}

// Presets returns every preset (name, title, figure), sorted by name.
func Presets() []Preset {
	out := append([]Preset(nil), presets...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns a fresh copy of the named preset's configuration, or an
// error naming the allowed presets.
func Lookup(name string) (soc.Config, error) {
	p, err := find(name)
	if err != nil {
		return soc.Config{}, err
	}
	return p.build(), nil
}

func find(name string) (*Preset, error) {
	for i := range presets {
		if presets[i].Name == name {
			return &presets[i], nil
		}
	}
	return nil, fmt.Errorf("preset: %q is not one of %s", name, strings.Join(Names(), ", "))
}

// board builds a fresh board of the preset.
func (p *Preset) board() Board {
	b := Board{Config: p.build()}
	if p.smmu != nil {
		s := p.smmu()
		b.SMMU = &s
	}
	return b
}

func (p *Preset) prov() []provenance.Entry { return p.table }

// entry returns the preset's provenance of path (zero when it has none).
func (p *Preset) entry(path string) provenance.Entry {
	for _, e := range p.table {
		if e.Path == path {
			return e
		}
	}
	return provenance.Entry{}
}

// New builds a machine from the named preset with the run's seed.
func New(name string, seed uint64) (*soc.Machine, error) { return NewWith(name, nil, seed) }

// NewWith builds a machine from the named preset with the hardware
// overrides hw (BoardWith).
func NewWith(name string, hw map[string]float64, seed uint64) (*soc.Machine, error) {
	cfg, err := LookupWith(name, hw)
	if err != nil {
		return nil, err
	}
	return soc.New(cfg, seed)
}
