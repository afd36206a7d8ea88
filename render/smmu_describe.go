package render

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/timeline"
)

// describeSMMU says what an item of side d's SMMU views (paths, table,
// TLB window, legend) shows; sm is the SMMU they draw.
func describeSMMU(txt *texts, d sideData, sm *timeline.SMMUSpec, r Ref) string {
	side := d.name()
	i := int(r.Index)
	switch r.Obj {
	case smmuMaster, smmuKey:
		if i < 0 || i >= len(sm.Masters) {
			return ""
		}
		m := &sm.Masters[i]
		match := "matches no SMR"
		switch ms := sm.Matching(m.SID); {
		case sm.ClientPD:
			match = "is not matched (sCR0.CLIENTPD=1: the SMMU is off for clients)"
		case len(ms) > 1:
			match = fmt.Sprintf("matches SMR%d and SMR%d: a stream-match conflict (sGFSR.SMCF), its transactions abort", ms[0], ms[1])
		case m.SMR >= 0:
			match = fmt.Sprintf("matches SMR%d", m.SMR)
		}
		return fmt.Sprintf("%s: StreamID %#x %s → %s; its TLB entries are drawn in this colour", m.Name, m.SID, match, m.Route)
	case smmuSMR:
		if i == len(sm.SMRs) {
			if sm.USFCFG {
				return "no SMR matches: sCR0.USFCFG=1 raises an unidentified-stream fault (sGFSR.USF) and aborts the transaction"
			}
			return "no SMR matches: sCR0.USFCFG=0 lets the transaction bypass translation; with sACR.SMTNMB_TLBEN the bypass is cached in the TBU TLB"
		}
		if i < 0 || i >= len(sm.SMRs) {
			return ""
		}
		e := &sm.SMRs[i]
		stage := ""
		switch e.Stage {
		case "nested":
			stage = ", nested: stage 1 under stage 2, each stage-1 descriptor address and the output translated through stage 2"
		case "stage 2":
			stage = ", stage 2 only"
		}
		return fmt.Sprintf("SMR%d: matches a StreamID when valid (%v) and ((SID xor %#x) and not %#x) == 0; S2CR%d type %s (context bank %d%s)", i, e.Valid, e.ID, e.Mask, i, e.Type, e.CB, stage)
	case smmuACR:
		return fmt.Sprintf("%s sACR: SMTNMB_TLBEN (bit 8) %s lets unmatched-stream bypasses allocate TBU TLB entries; S2CRB_TLBEN (bit 10) %s does the same for S2CR-bypass streams",
			side, onOff(sm.SMTNMBTLBEN), onOff(sm.S2CRBTLBEN))
	case smmuTLB:
		return describeTLBEntry(d, sm, i)
	case smmuTxn:
		if i < 0 || i >= len(sm.Txns) {
			return ""
		}
		tx := &sm.Txns[i]
		name := ""
		if int(tx.Master) < len(sm.Masters) {
			name = sm.Masters[tx.Master].Name
		}
		return fmt.Sprintf("%s %s %s %#x issued %v, accepted by the TBU %v, done %v: %s", side, name, rw(tx.Write), tx.Addr, tx.Issue, tx.Accept, tx.Done,
			smmuStatus(txt, sm, i, false, tx.Done, false))
	}
	return ""
}

func rw(write bool) string {
	if write {
		return "write"
	}
	return "read"
}

// describeTLBEntry says what TBU TLB entry i holds at the side's time.
func describeTLBEntry(d sideData, sm *timeline.SMMUSpec, i int) string {
	tl, state, side := d.tl, d.state, d.name()
	if state == nil || sm.TLB >= len(state.Caches) || sm.TLB >= len(tl.Caches) || i < 0 || i >= len(state.Caches[sm.TLB]) {
		return ""
	}
	spec := &tl.Caches[sm.TLB]
	l := state.Caches[sm.TLB][i]
	where := fmt.Sprintf("%s TBU0 TLB set %d way %d", side, spec.FirstSet+i/max(spec.Ways, 1), i%max(spec.Ways, 1))
	if !l.Valid {
		return where + " · empty"
	}
	owner := "?"
	if m := masterOfWriter(sm, l.Writer); m >= 0 {
		owner = sm.Masters[m].Name
	}
	if l.Dirty {
		return fmt.Sprintf("%s · %s's cached bypass: identity entry for %#x (no translation; saves the trip to the TCU)", where, owner, l.Tag)
	}
	return fmt.Sprintf("%s · %s's translation for IOVA page %#x", where, owner, l.Tag)
}

// describeHist says what share of side's reads bin i of its latency
// histogram (pts) holds.
func describeHist(side string, pts []timeline.Point, i int) string {
	if i < 0 || i >= len(pts) {
		return ""
	}
	p := pts[i]
	half := p.X
	if len(pts) > 1 {
		half = (pts[1].X - pts[0].X) / 2
	}
	if i == len(pts)-1 { // the last bin holds every longer read
		return fmt.Sprintf("%s: %.2f %% of the NIC's reads took %.0f platform cycles or more", side, p.Y, p.X-half)
	}
	return fmt.Sprintf("%s: %.2f %% of the NIC's reads took %.0f..%.0f platform cycles", side, p.Y, p.X-half, p.X+half)
}

// describeTput says how fast side forwarded around point i of its
// throughput curve (pts).
func describeTput(side string, pts []timeline.Point, i int) string {
	if i < 0 || i >= len(pts) {
		return ""
	}
	p := pts[i]
	return fmt.Sprintf("%s: %.3g packets per µs forwarded around %.0f µs", side, p.Y, p.X)
}
