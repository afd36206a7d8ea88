package render

import (
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
	"strings"
)

// The SMMU view (Timeline.SMMU): per side, the masters with their
// StreamIDs and the path of each master's transaction at the cursor
// (master -> TBU -> TCU -> memory, with its latency), the stream-match
// table with the matching SMR lit (or the "no match" row), the sACR bits,
// and the TBU TLB window with entries coloured by stream and cached
// bypasses crossed; under both sides, the NIC's read latency histogram A
// vs B and forwarding over time with the cursor. Text is at least smmuSz.

// SMMU view sizes, in CSS pixels (the stage's minimum text size is 14).
const (
	smmuSz    = 14
	smmuTitle = 16
	smmuRow   = 20 // one stream-match row
	smmuBox   = 26 // a path box's height
)

// smmuPart says which part of the SMMU view a RefSMMU item shows (Obj).
const (
	smmuMaster = iota // Index: master
	smmuSMR           // Index: SMR, len(SMRs) for the "no match" row
	smmuTLB           // Index: TLB window entry
	smmuTxn           // Index: transaction in SMMUSpec.Txns
	smmuHist          // Index: histogram bin (Side: which run)
	smmuTput          // Index: throughput point (Side: which run)
	smmuACR           // the sACR / sCR0 line
	smmuKey           // Index: legend entry
)

// StreamColor is the colour of a master's stream (its TLB entries, its
// path at the cursor): one per master, in SMMUSpec.Masters order, by the
// palette's meanings: the NIC (master 0) is a device doing DMA (Orange),
// the translated engine's entries are cached translations, valid ways of a
// cache (Yellow). Cached bypasses are crossed as well, so the TLB window
// does not rely on colour alone.
func StreamColor(master int) Color {
	c := [...]Color{Orange, Yellow, Blue, Violet}
	return c[max(master, 0)%len(c)]
}

// SideColor is the colour of run A or B in the charts both sides share.
// A and B are told apart by marks, not by a meaning colour (as the
// counters do): A is drawn in Accent, filled and wide; B in Text, outlined
// and thin.
func SideColor(side int) Color {
	if side == 1 {
		return Text
	}
	return Accent
}

// smmuOf returns the SMMU spec of the frame's runs, nil when neither has
// one.
func smmuOf(f *Frame) *timeline.SMMUSpec {
	for _, sd := range [2]*Side{&f.A, &f.B} {
		if sd.Result != nil && sd.Result.Timeline != nil && sd.Result.Timeline.SMMU != nil {
			return sd.Result.Timeline.SMMU
		}
	}
	return nil
}

// smmuIDs are one side's item ids.
type smmuIDs struct {
	column, header, clock, caption, master, path, box, boxLabel, status, smr, smrText, acr, tlb, tlbCross, tlbLabel string
}

var smmuSideIDs = [2]smmuIDs{
	{"a/column", "a/header", "a/clock", "a/caption", "a/smmu-master", "a/smmu-path", "a/smmu-box", "a/smmu-box-label", "a/smmu-status",
		"a/smmu-smr", "a/smmu-smr-text", "a/smmu-acr", "a/smmu-tlb", "a/smmu-tlb-bypass", "a/smmu-tlb-label"},
	{"b/column", "b/header", "b/clock", "b/caption", "b/smmu-master", "b/smmu-path", "b/smmu-box", "b/smmu-box-label", "b/smmu-status",
		"b/smmu-smr", "b/smmu-smr-text", "b/smmu-acr", "b/smmu-tlb", "b/smmu-tlb-bypass", "b/smmu-tlb-label"},
}

// smmuTxnAt picks master m's transaction to show at t: the last recorded
// one issued at or before t, else the first one after t (next is true).
func smmuTxnAt(sm *timeline.SMMUSpec, m int, t sim.Time) (i int, next bool) {
	n := sm.TxnsUntil(t)
	for i := n - 1; i >= 0; i-- {
		if int(sm.Txns[i].Master) == m {
			return i, false
		}
	}
	for i := n; i < len(sm.Txns); i++ {
		if int(sm.Txns[i].Master) == m {
			return i, true
		}
	}
	return -1, false
}

// smmuCommon is what the SMMU column's views and its legend share: the
// side's run and the SMMU they draw, their text size and their hover.
type smmuCommon struct {
	txt *texts
	d   sideData
	sm  *timeline.SMMUSpec
}

func commonOf(txt *texts, d sideData) smmuCommon { return smmuCommon{txt: txt, d: d, sm: d.tl.SMMU} }

func (p *smmuCommon) TextSizes() TextSizes {
	return TextSizes{Title: smmuSz, Body: smmuSz, Least: smmuSz}
}

func (p *smmuCommon) Describe(r Ref) string { return describeSMMU(p.txt, p.d, p.sm, r) }

// smmuPathsView draws one row per master: its box (name, StreamID), then
// the TBU, TCU and memory boxes with the path of its transaction at the
// side's time lit in the stream's colour (the memory box of a read names
// where it was answered: a snoop of the core's cache, the L3 or DRAM), and
// a status line with the latency.
type smmuPathsView struct {
	smmuCommon
	// bottom is the y under the rows after the last Build.
	bottom float32
	// masked leaves out the latency of a transaction still in flight
	// (it is known only when it completes: a lesson's question before
	// its reveal must not show it).
	masked bool
}

func (v *smmuPathsView) bind(txt *texts, d sideData) {
	*v = smmuPathsView{smmuCommon: commonOf(txt, d)}
}

// smmuPathRow is the height of a master's row: its boxes and status line.
const smmuPathRow = smmuBox + smmuSz + 10

// smmuArrowW is the width of an arrow between two boxes.
const smmuArrowW = 18

// MinSize is a row per master, the boxes at least as wide as their names
// (the memory box's widest, where a read was answered).
func (v *smmuPathsView) MinSize() Size {
	box := max(textWidth("DRAM", smmuSz), textWidth(servedNames[timeline.ServedSnoop], smmuSz))
	return Size{4*box + 3*smmuArrowW, float32(len(v.sm.Masters)) * smmuPathRow}
}

func (v *smmuPathsView) Build(s *Scene, r Rect) {
	ids := &smmuSideIDs[v.d.side]
	sm, x, y, w := v.sm, r.X, r.Y, r.W
	// The master boxes take the long labels' width when it fits in 30 %
	// of the row, never less than the short labels' (name and StreamID).
	mw, mwShort := float32(0), float32(0)
	for _, ms := range sm.Masters {
		mw = max(mw, textWidth(v.txt.Join(ms.Name, " SID ", v.txt.Hex(uint64(ms.SID))), smmuSz)+14)
		mwShort = max(mwShort, textWidth(v.txt.Join(ms.Name, " ", v.txt.Hex(uint64(ms.SID))), smmuSz)+14)
	}
	long := mw <= max(w*0.3, mwShort) // every master's long label fits: all long, else all short
	mw = min(mw, max(w*0.3, mwShort))
	bw := (w - mw - 3*smmuArrowW) / 3
	for m := range sm.Masters {
		ms := &sm.Masters[m]
		ry := y + float32(m)*(smmuBox+smmuSz+10)
		s.Rect(ids.master, int32(m), x, ry, mw, smmuBox, StreamColor(m), Ref{Kind: RefSMMU, Side: v.d.side, Obj: smmuMaster, Index: int32(m)})
		label := v.txt.Join(ms.Name, " ", v.txt.Hex(uint64(ms.SID)))
		if long {
			label = v.txt.Join(ms.Name, " SID ", v.txt.Hex(uint64(ms.SID)))
		}
		s.Text(ids.boxLabel, x+6, ry+smmuBox-8, v.txt.Fit(label, mw-10, smmuSz), smmuSz, Background, AlignStart)
		i, next := smmuTxnAt(sm, m, v.d.t)
		v.path(s, m, i, next, x, ry, mw, bw)
		// The last resort leaves out the state: the lit boxes show it.
		short := smmuStatus(v.txt, sm, i, next, v.d.t, true)
		bare := strings.TrimSuffix(strings.TrimSuffix(short, " · in flight"), " · done")
		status := smmuPick(v.txt, w, smmuStatus(v.txt, sm, i, next, v.d.t, false), short, bare)
		if v.masked && i >= 0 && !next && sm.Txns[i].Done > v.d.t {
			status = v.txt.Join(smmuVerb(&sm.Txns[i]), " · in flight", "")
		}
		s.Text(ids.status, x, ry+smmuBox+smmuSz+4, status, smmuSz, Text, AlignStart)
	}
	v.bottom = y + float32(len(sm.Masters))*(smmuBox+smmuSz+10)
}

// path draws master m's TBU, TCU and memory boxes (bw wide, after its
// box mw wide) on the row at ry, with the path of its transaction i
// (next: not issued yet) lit: master -> TBU; TBU -> TCU -> memory for a
// miss, TBU -> memory under the TCU box for a hit.
func (v *smmuPathsView) path(s *Scene, m, i int, next bool, x, ry, mw, bw float32) {
	ids := &smmuSideIDs[v.d.side]
	col := StreamColor(m)
	var tx timeline.SMMUTxn
	if i >= 0 {
		tx = v.sm.Txns[i]
	}
	lit := [3]bool{i >= 0 && !next, i >= 0 && !next && tx.TCU, i >= 0 && !next && !tx.Aborted}
	bx := x + mw + smmuArrowW
	for k, name := range [3]string{"TBU0", "TCU", "memory"} {
		stroke, sw := Surface, float32(1)
		if lit[k] {
			stroke, sw = col, 2
		}
		s.Add(Item{Kind: KindRect, ID: ids.box, Index: int32(m*3 + k), X: bx, Y: ry, W: bw, H: smmuBox, Fill: None, Stroke: stroke, StrokeWidth: sw})
		tc := Muted
		if lit[k] {
			tc = Text
		}
		if k == 2 {
			name = smmuPick(v.txt, bw-2, name, "mem")
			if lit[k] && !tx.Write {
				name = servedNames[min(int(tx.Served), len(servedNames)-1)]
			}
		}
		s.Text(ids.boxLabel, bx+bw/2, ry+smmuBox-8, name, smmuSz, tc, AlignMiddle)
		bx += bw + smmuArrowW
	}
	mid := ry + smmuBox/2
	ref := Ref{Kind: RefSMMU, Side: v.d.side, Obj: smmuTxn, Index: int32(i)}
	if i < 0 {
		ref = Ref{}
	}
	arrow := func(x1, y1, x2, y2 float32, on bool) {
		c, sw := Surface, float32(1.5)
		if on {
			c, sw = col, 2.5
		}
		s.Arrow(ids.path, x1, y1, x2, y2, c, sw, ref)
	}
	tbuX := x + mw + smmuArrowW
	tcuX := tbuX + bw + smmuArrowW
	dramX := tcuX + bw + smmuArrowW
	arrow(x+mw+1, mid, tbuX-1, mid, lit[0])
	arrow(tbuX+bw+1, mid, tcuX-1, mid, lit[1])
	arrow(tcuX+bw+1, mid, dramX-1, mid, lit[1] && lit[2])
	if lit[0] && !tx.TCU && lit[2] { // a TBU hit goes straight to memory, under the TCU
		s.Line(ids.path, tbuX+bw/2, ry+smmuBox, tbuX+bw/2, ry+smmuBox+4, col, 2.5)
		s.Line(ids.path, tbuX+bw/2, ry+smmuBox+4, dramX+bw/2, ry+smmuBox+4, col, 2.5)
		s.Arrow(ids.path, dramX+bw/2, ry+smmuBox+4, dramX+bw/2, ry+smmuBox+1, col, 2.5, ref)
	}
}

// servedNames name where a read was answered, by timeline.SMMUTxn.Served.
var servedNames = [...]string{timeline.ServedDRAM: "DRAM", timeline.ServedL3: "L3", timeline.ServedSnoop: "snoop"}

// smmuStatus says what master's transaction i did, with its latency (in
// fewer words when short).
func smmuStatus(txt *texts, sm *timeline.SMMUSpec, i int, next bool, t sim.Time, short bool) string {
	if i < 0 {
		return "no transaction recorded"
	}
	tx := &sm.Txns[i]
	what := smmuVerb(tx)
	if next {
		return txt.Join("next ", what, txt.Join(" at ", txt.Time(tx.Issue), ""))
	}
	var path string
	switch {
	case sm.ClientPD && short:
		path = "untranslated"
	case sm.ClientPD:
		path = "SMMU off (CLIENTPD): untranslated"
	case tx.Aborted:
		path = "fault"
		if name := smmuFaultName(sm, tx); name != "" {
			path = txt.Join("fault ", name, "")
		}
		if !short {
			path = txt.Join(path, ": aborted at the TCU", "")
		}
	case tx.Hit:
		path = "TBU hit"
	case tx.Walked && short:
		path = "TCU walk"
	case tx.Walked:
		path = "TBU miss, TCU walk"
	case tx.TCU && short:
		path = "TCU match"
	case tx.TCU:
		path = "TBU miss, TCU stream match"
	}
	unit := " cycles"
	if short {
		unit = " cyc"
	}
	lat := txt.Join(txt.Num(float64(int(sm.Clock.InCycles(tx.Done-tx.Issue)+0.5))), unit, "")
	state := " · done"
	if tx.Done > t {
		state = " · in flight"
	}
	return txt.Join(txt.Join(what, " ", lat), " · ", txt.Join(path, state, ""))
}

// smmuVerb is what a transaction does: "read" or "write".
func smmuVerb(tx *timeline.SMMUTxn) string {
	if tx.Write {
		return "write"
	}
	return "read"
}

// smmuFaultName names the fault that aborted tx, from its master's stream
// match: two SMRs (SMCF), none with USFCFG=1 (USF), or else its walk (TF).
func smmuFaultName(sm *timeline.SMMUSpec, tx *timeline.SMMUTxn) string {
	if int(tx.Master) >= len(sm.Masters) {
		return ""
	}
	switch n := len(sm.Matching(sm.Masters[tx.Master].SID)); {
	case n > 1:
		return "SMCF"
	case n == 0 && sm.USFCFG:
		return "USF"
	case n == 1 && sm.Masters[tx.Master].Route == "translate":
		return "TF"
	}
	return ""
}

// smmuPick returns the first of the SMMU view's wordings that fits in w
// at smmuSz, else the last cut to fit (texts.FitFirst at the view's size).
func smmuPick(txt *texts, w float32, wordings ...string) string {
	return txt.FitFirst(w, smmuSz, wordings...)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
