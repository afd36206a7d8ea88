package render

import (
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
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

// smmuStage lays out the SMMU view in the stage area (x0, y0)-(x1, y1).
func (st *Stage) smmuStage(s *Scene, f *Frame, x0, y0, x1, y1 float32) {
	bottomH := min(max((y1-y0)*0.28, 140), 240)
	colBottom := y1 - bottomH - smmuRow - gap
	colW := (x1 - x0 - gap) / 2
	var shown [3]bool
	st.smmuSide(s, 0, &f.A, x0, y0, colW, colBottom-y0, &shown)
	st.smmuSide(s, 1, &f.B, x0+colW+gap, y0, colW, colBottom-y0, &shown)
	st.smmuLegend(s, f, shown, x0, colBottom+gap/2, x1-x0)
	by := colBottom + gap/2 + smmuRow + 4
	hw := (x1 - x0 - gap) / 2
	st.smmuHistogram(s, f, x0, by, hw, y1-by)
	st.smmuThroughput(s, f, x0+hw+gap, by, hw, y1-by)
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

// smmuSide draws one run's SMMU in the column (x, y, w, h); shown[m] is set
// when a TLB entry of master m is drawn (for the legend).
func (st *Stage) smmuSide(s *Scene, side uint8, sd *Side, x, y, w, h float32, shown *[3]bool) {
	ids := &smmuSideIDs[side]
	s.Add(Item{Kind: KindRect, ID: ids.column, X: x, Y: y, W: w, H: h, Fill: None, Stroke: Surface, StrokeWidth: 1})
	if sd.Result == nil || sd.Result.Timeline == nil || sd.Result.Timeline.SMMU == nil {
		s.Text(ids.header, x+8, y+smmuTitle+4, st.txt.Join(sideNames[side], " · ", "no result"), smmuTitle, Muted, AlignStart)
		return
	}
	r := sd.Result
	tl := r.Timeline
	sm := tl.SMMU
	title := sd.PolicyTitle
	if title == "" {
		title = r.Policy
	}
	clock := st.txt.Time(sd.Time)
	s.Text(ids.clock, x+w-8, y+smmuTitle+4, clock, smmuSz, Muted, AlignEnd)
	s.Text(ids.header, x+8, y+smmuTitle+4, st.txt.Fit(st.txt.Join(sideNames[side], " · ", title), w-24-textWidth(clock, smmuSz), smmuTitle), smmuTitle, Text, AlignStart)
	narrH := float32(0)
	if i := captionAt(r.Narration, sd.Time); i >= 0 {
		caption := st.txt.Join(st.txt.Num(float64(i+1)), ". ", r.Narration[i].Title)
		if st.frame.Narrate { // presentation mode: the step large, as on the other views
			narrH = st.narration(s, side, &r.Narration[i], caption, x+8, y+smmuTitle+8, w-16, h*0.3, h*0.5)
		} else {
			s.Text(ids.caption, x+8, y+smmuTitle+24, st.txt.Fit(caption, w-16, smmuSz), smmuSz, Muted, AlignStart)
		}
	}
	state := sd.State
	if state == nil && len(tl.Keyframes) > 0 {
		state = &tl.Keyframes[0].State
	}
	cx, cw := x+8, w-16
	cy := y + smmuTitle + 36 + narrH
	cy = st.smmuPaths(s, side, sm, sd.Time, cx, cy, cw)
	cy = st.smmuTable(s, side, sm, cx, cy+6, cw)
	if state != nil {
		st.smmuTLB(s, side, tl, state, cx, cy+4, cw, y+h-8-(cy+4), shown)
	}
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

// smmuPaths draws one row per master: its box (name, StreamID), then the
// TBU, TCU and memory boxes with the path of its transaction at t lit in
// the stream's colour (the memory box of a read names where it was
// answered: the core's cache, the L3 or DRAM), and a status line with the
// latency. It returns the y below the rows.
func (st *Stage) smmuPaths(s *Scene, side uint8, sm *timeline.SMMUSpec, t sim.Time, x, y, w float32) float32 {
	ids := &smmuSideIDs[side]
	const arrowW = 18
	// The master boxes take the long labels' width when it fits in 30 %
	// of the row, never less than the short labels' (name and StreamID).
	mw, mwShort := float32(0), float32(0)
	for _, ms := range sm.Masters {
		mw = max(mw, textWidth(st.txt.Join(ms.Name, " SID ", st.txt.Hex(uint64(ms.SID))), smmuSz)+14)
		mwShort = max(mwShort, textWidth(st.txt.Join(ms.Name, " ", st.txt.Hex(uint64(ms.SID))), smmuSz)+14)
	}
	long := mw <= max(w*0.3, mwShort) // every master's long label fits: all long, else all short
	mw = min(mw, max(w*0.3, mwShort))
	bw := (w - mw - 3*arrowW) / 3
	stages := [3]string{"TBU0", "TCU", "memory"}
	for m := range sm.Masters {
		ms := &sm.Masters[m]
		col := StreamColor(m)
		ry := y + float32(m)*(smmuBox+smmuSz+10)
		s.Rect(ids.master, int32(m), x, ry, mw, smmuBox, col, Ref{Kind: RefSMMU, Side: side, Obj: smmuMaster, Index: int32(m)})
		label := st.txt.Join(ms.Name, " ", st.txt.Hex(uint64(ms.SID)))
		if long {
			label = st.txt.Join(ms.Name, " SID ", st.txt.Hex(uint64(ms.SID)))
		}
		s.Text(ids.boxLabel, x+6, ry+smmuBox-8, st.txt.Fit(label, mw-10, smmuSz), smmuSz, Background, AlignStart)
		i, next := smmuTxnAt(sm, m, t)
		var tx timeline.SMMUTxn
		if i >= 0 {
			tx = sm.Txns[i]
		}
		lit := [3]bool{i >= 0 && !next, i >= 0 && !next && tx.TCU, i >= 0 && !next && !tx.Aborted}
		bx := x + mw + arrowW
		for k, name := range stages {
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
				name = st.pick(bw-2, name, "mem")
				if lit[k] && !tx.Write {
					name = servedNames[min(int(tx.Served), len(servedNames)-1)]
				}
			}
			s.Text(ids.boxLabel, bx+bw/2, ry+smmuBox-8, name, smmuSz, tc, AlignMiddle)
			bx += bw + arrowW
		}
		// Arrows: master -> TBU; TBU -> TCU -> memory for a miss, TBU ->
		// memory under the TCU box for a hit.
		mid := ry + smmuBox/2
		ref := Ref{Kind: RefSMMU, Side: side, Obj: smmuTxn, Index: int32(i)}
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
		tbuX := x + mw + arrowW
		tcuX := tbuX + bw + arrowW
		dramX := tcuX + bw + arrowW
		arrow(x+mw+1, mid, tbuX-1, mid, lit[0])
		arrow(tbuX+bw+1, mid, tcuX-1, mid, lit[1])
		arrow(tcuX+bw+1, mid, dramX-1, mid, lit[1] && lit[2])
		if lit[0] && !tx.TCU && lit[2] { // a TBU hit goes straight to memory, under the TCU
			s.Line(ids.path, tbuX+bw/2, ry+smmuBox, tbuX+bw/2, ry+smmuBox+4, col, 2.5)
			s.Line(ids.path, tbuX+bw/2, ry+smmuBox+4, dramX+bw/2, ry+smmuBox+4, col, 2.5)
			s.Arrow(ids.path, dramX+bw/2, ry+smmuBox+4, dramX+bw/2, ry+smmuBox+1, col, 2.5, ref)
		}
		s.Text(ids.status, x, ry+smmuBox+smmuSz+4, st.pick(w, st.smmuStatus(sm, i, next, t, false), st.smmuStatus(sm, i, next, t, true)), smmuSz, Text, AlignStart)
	}
	return y + float32(len(sm.Masters))*(smmuBox+smmuSz+10)
}

// servedNames name where a read was answered, by timeline.SMMUTxn.Served.
var servedNames = [...]string{timeline.ServedDRAM: "DRAM", timeline.ServedL3: "L3", timeline.ServedSnoop: "snoop"}

// smmuStatus says what master's transaction i did, with its latency (in
// fewer words when short).
func (st *Stage) smmuStatus(sm *timeline.SMMUSpec, i int, next bool, t sim.Time, short bool) string {
	if i < 0 {
		return "no transaction recorded"
	}
	tx := &sm.Txns[i]
	what := "read"
	if tx.Write {
		what = "write"
	}
	if next {
		return st.txt.Join("next ", what, st.txt.Join(" at ", st.txt.Time(tx.Issue), ""))
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
			path = st.txt.Join("fault ", name, "")
		}
		if !short {
			path = st.txt.Join(path, ": aborted at the TCU", "")
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
	lat := st.txt.Join(st.txt.Num(float64(int(sm.Clock.InCycles(tx.Done-tx.Issue)+0.5))), unit, "")
	state := " · done"
	if tx.Done > t {
		state = " · in flight"
	}
	return st.txt.Join(st.txt.Join(what, " ", lat), " · ", st.txt.Join(path, state, ""))
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

// smmuDecides reports whether table row r (an SMR, or the "no match" row
// after them) takes part in master ms's stream match: every SMR that
// matches it (two are a conflict), or the "no match" row when none does.
func smmuDecides(sm *timeline.SMMUSpec, ms *timeline.SMMUMaster, r int) bool {
	if r < len(sm.SMRs) {
		return sm.SMRs[r].Matches(ms.SID)
	}
	for i := range sm.SMRs {
		if sm.SMRs[i].Matches(ms.SID) {
			return false
		}
	}
	return true
}

// smmuTable draws the stream-match table: one row per SMR with its S2CR,
// then the "no match" row (sCR0.USFCFG), each lit in the colour of every
// master it decides, then the sACR bits. It returns the y below it.
func (st *Stage) smmuTable(s *Scene, side uint8, sm *timeline.SMMUSpec, x, y, w float32) float32 {
	ids := &smmuSideIDs[side]
	head := "stream match: SMR → S2CR"
	if sm.ClientPD {
		head = st.pick(w, "stream match: off (sCR0.CLIENTPD=1: all bypass)", "off: CLIENTPD=1, all bypass")
	}
	s.Text(ids.smrText, x, y+smmuSz, head, smmuSz, Muted, AlignStart)
	y += smmuSz + 6
	rows := len(sm.SMRs) + 1
	for r := 0; r < rows; r++ {
		ry := y + float32(r)*smmuRow
		var label, short, shortest string
		if r < len(sm.SMRs) {
			e := &sm.SMRs[r]
			to, sto := e.Type, e.Type
			if e.Type == "translate" {
				to = st.txt.Join("translate CB", st.txt.Num(float64(e.CB)), "")
				sto = st.txt.Join("CB", st.txt.Num(float64(e.CB)), "")
				if e.Stage != "" {
					// The bank's stage stays in every form: a nested
					// bank's walks are what its latencies are about.
					stage := st.txt.Join(" (", e.Stage, ")")
					to, sto = st.txt.Join(to, stage, ""), st.txt.Join(sto, stage, "")
				}
			}
			valid := ""
			if !e.Valid {
				valid = " (invalid)"
			}
			smr := st.txt.Join("SMR", st.txt.Num(float64(r)), "")
			label = st.txt.Join(st.txt.Join(smr, " ID ", st.txt.Hex(uint64(e.ID))),
				st.txt.Join(" MASK ", st.txt.Hex(uint64(e.Mask)), ""), st.txt.Join(valid, " → ", to))
			short = st.txt.Join(st.txt.Join(smr, " ", st.txt.Hex(uint64(e.ID))), st.txt.Join("/", st.txt.Hex(uint64(e.Mask)), valid), st.txt.Join(" → ", sto, ""))
			shortest = st.txt.Join(st.txt.Join(smr, valid, ""), " → ", sto)
		} else {
			label, short = "no match → sCR0.USFCFG=0: bypass", "no match → USFCFG=0: bypass"
			if sm.USFCFG {
				label, short = "no match → sCR0.USFCFG=1: fault (USF)", "no match → USFCFG=1: fault"
			}
			shortest = short
		}
		s.Rect(ids.smr, int32(r), x, ry, w, smmuRow-2, Surface, Ref{Kind: RefSMMU, Side: side, Obj: smmuSMR, Index: int32(r)})
		// The masters this row decides, as tags at the right.
		tx := x + w - 4
		for m := len(sm.Masters) - 1; m >= 0; m-- {
			ms := &sm.Masters[m]
			if sm.ClientPD || !smmuDecides(sm, ms, r) {
				continue
			}
			name := ms.Name
			tw := textWidth(name, smmuSz) + 8
			tx -= tw
			s.Rect(ids.smr, int32(r), tx, ry+1, tw, smmuRow-4, StreamColor(m), Ref{Kind: RefSMMU, Side: side, Obj: smmuMaster, Index: int32(m)})
			s.Text(ids.smrText, tx+4, ry+smmuRow-6, name, smmuSz, Background, AlignStart)
			tx -= 4
		}
		s.Text(ids.smrText, x+4, ry+smmuRow-6, st.pick(tx-x-8, label, short, shortest), smmuSz, Text, AlignStart)
	}
	y += float32(rows) * smmuRow
	bits := st.txt.Join(st.txt.Join("SMTNMB_TLBEN ", onOff(sm.SMTNMBTLBEN), ""), " · ", st.txt.Join("S2CRB_TLBEN ", onOff(sm.S2CRBTLBEN), ""))
	s.Add(Item{Kind: KindText, ID: ids.acr, X: x, Y: y + smmuSz + 2, Text: st.pick(w, st.txt.Join("sACR ", bits, ""), bits), Size: smmuSz, Fill: Text, Stroke: None,
		Ref: Ref{Kind: RefSMMU, Side: side, Obj: smmuACR}})
	return y + smmuSz + 8
}

// pick returns the first of the SMMU view's wordings that fits in w at
// smmuSz, else the last cut to fit (texts.FitFirst at the view's size).
func (st *Stage) pick(w float32, wordings ...string) string {
	return st.txt.FitFirst(w, smmuSz, wordings...)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
