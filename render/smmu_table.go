package render

import "github.com/dmaviz/dmaviz/model/timeline"

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

// smmuTableView draws the stream-match table: one row per SMR with its
// S2CR, then the "no match" row (sCR0.USFCFG), each lit in the colour of
// every master it decides, then the sACR bits.
type smmuTableView struct {
	smmuCommon
	// bottom is the y under the table after the last Build.
	bottom float32
}

func (v *smmuTableView) bind(txt *texts, d sideData) {
	*v = smmuTableView{smmuCommon: commonOf(txt, d)}
}

// MinSize is the heading, a row per SMR and the "no match" row, and the
// sACR line.
func (v *smmuTableView) MinSize() Size {
	return Size{0, smmuSz + 6 + float32(len(v.sm.SMRs)+1)*smmuRow + smmuSz + 8}
}

func (v *smmuTableView) Build(s *Scene, r Rect) {
	ids := &smmuSideIDs[v.d.side]
	sm, x, y, w := v.sm, r.X, r.Y, r.W
	head := "stream match: SMR → S2CR"
	if sm.ClientPD {
		head = smmuPick(v.txt, w, "stream match: off (sCR0.CLIENTPD=1: all bypass)", "off: CLIENTPD=1, all bypass")
	}
	s.Text(ids.smrText, x, y+smmuSz, head, smmuSz, Muted, AlignStart)
	y += smmuSz + 6
	rows := len(sm.SMRs) + 1
	for row := 0; row < rows; row++ {
		v.row(s, row, x, y+float32(row)*smmuRow, w)
	}
	y += float32(rows) * smmuRow
	bits := v.txt.Join(v.txt.Join("SMTNMB_TLBEN ", onOff(sm.SMTNMBTLBEN), ""), " · ", v.txt.Join("S2CRB_TLBEN ", onOff(sm.S2CRBTLBEN), ""))
	s.Add(Item{Kind: KindText, ID: ids.acr, X: x, Y: y + smmuSz + 2, Text: smmuPick(v.txt, w, v.txt.Join("sACR ", bits, ""), bits), Size: smmuSz, Fill: Text, Stroke: None,
		Ref: Ref{Kind: RefSMMU, Side: v.d.side, Obj: smmuACR}})
	v.bottom = y + smmuSz + 8
}

// row draws table row r (an SMR, or the "no match" row after them) at ry:
// the masters it decides as tags at the right, its wording in the room
// left of them.
func (v *smmuTableView) row(s *Scene, r int, x, ry, w float32) {
	ids := &smmuSideIDs[v.d.side]
	sm := v.sm
	label, short, shortest := v.wordings(r)
	s.Rect(ids.smr, int32(r), x, ry, w, smmuRow-2, Surface, Ref{Kind: RefSMMU, Side: v.d.side, Obj: smmuSMR, Index: int32(r)})
	tx := x + w - 4
	for m := len(sm.Masters) - 1; m >= 0; m-- {
		ms := &sm.Masters[m]
		if sm.ClientPD || !smmuDecides(sm, ms, r) {
			continue
		}
		name := ms.Name
		tw := textWidth(name, smmuSz) + 8
		tx -= tw
		s.Rect(ids.smr, int32(r), tx, ry+1, tw, smmuRow-4, StreamColor(m), Ref{Kind: RefSMMU, Side: v.d.side, Obj: smmuMaster, Index: int32(m)})
		s.Text(ids.smrText, tx+4, ry+smmuRow-6, name, smmuSz, Background, AlignStart)
		tx -= 4
	}
	s.Text(ids.smrText, x+4, ry+smmuRow-6, smmuPick(v.txt, tx-x-8, label, short, shortest), smmuSz, Text, AlignStart)
}

// wordings are row r's texts, longest first.
func (v *smmuTableView) wordings(r int) (label, short, shortest string) {
	sm, txt := v.sm, v.txt
	if r >= len(sm.SMRs) {
		label, short = "no match → sCR0.USFCFG=0: bypass", "no match → USFCFG=0: bypass"
		if sm.USFCFG {
			label, short = "no match → sCR0.USFCFG=1: fault (USF)", "no match → USFCFG=1: fault"
		}
		return label, short, short
	}
	e := &sm.SMRs[r]
	to, sto := e.Type, e.Type
	if e.Type == "translate" {
		to = txt.Join("translate CB", txt.Num(float64(e.CB)), "")
		sto = txt.Join("CB", txt.Num(float64(e.CB)), "")
		if e.Stage != "" {
			// The bank's stage stays in every form: a nested bank's
			// walks are what its latencies are about.
			stage := txt.Join(" (", e.Stage, ")")
			to, sto = txt.Join(to, stage, ""), txt.Join(sto, stage, "")
		}
	}
	valid := ""
	if !e.Valid {
		valid = " (invalid)"
	}
	smr := txt.Join("SMR", txt.Num(float64(r)), "")
	label = txt.Join(txt.Join(smr, " ID ", txt.Hex(uint64(e.ID))),
		txt.Join(" MASK ", txt.Hex(uint64(e.Mask)), ""), txt.Join(valid, " → ", to))
	short = txt.Join(txt.Join(smr, " ", txt.Hex(uint64(e.ID))), txt.Join("/", txt.Hex(uint64(e.Mask)), valid), txt.Join(" → ", sto, ""))
	shortest = txt.Join(txt.Join(smr, valid, ""), " → ", sto)
	return label, short, shortest
}
