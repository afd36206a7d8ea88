package smmubypass

import (
	"fmt"
	"sort"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
)

// narration is built from the run's settings: the NIC's route (unmatched,
// S2CR bypass, faulting), which sACR bit caches it, the TBU's hit time,
// and what bounds the forwarding rate.
func (r *run) narration(res *scenario.Result) []scenario.Step {
	lat, _ := res.Metric("bypass_read_latency_cycles")
	hit, _ := res.Metric("translated_hit_rate")
	engLat, _ := res.Metric("translated_read_latency_cycles")
	sc := r.s.Config()
	steps := []scenario.Step{
		{T: r.st.firstTxn.issue, Title: "A StreamID on every transaction",
			Text: fmt.Sprintf("Each master's transactions carry a StreamID: the NIC's is %#x, the engine's %#x. The SMMU compares it with every valid SMR ((SID xor ID) and not MASK == 0); the matching S2CR says translate through a context bank, bypass, or fault.", nicSID, engineSID)},
		r.routeStep(),
		r.setupStep(),
		{T: max(r.first+r.interval, r.st.engBack.done), Title: "What the TBU caches",
			Text: fmt.Sprintf("The TBU's TLB (%d entries, %d-way) holds the engine's 4 KiB translations; a hit costs %s, a miss goes to the shared TCU for the stream match and a walk (at most %d in flight per TBU).", sc.TLBEntries, sc.TLBWays, hitWords(sc), sc.Walks) + r.stageText() + pdText(r.s.Regs)},
		r.cachingStep(lat),
		r.calibrationStep(),
		r.forwardingStep(res),
		{T: r.last * 3 / 4, Title: "What it costs the other stream", Text: r.costText(hit, engLat)},
		{T: r.last, Title: "Why only MMU-500",
			Text: "SMTNMB_TLBEN and S2CRB_TLBEN are implementation-defined sACR bits of the MMU-500; arm_mmu500_reset sets them, other SMMUv2 implementations give those bits other meanings or none."},
	}
	out := steps[:0]
	for _, s := range steps {
		if s.Title != "" { // setupStep is empty for the normal setup
			out = append(out, s)
		}
	}
	// In time order (the setup's step is at its first hazard).
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out
}

// costText is what the NIC's caching costs the engine.
func (r *run) costText(hit, engLat float64) string {
	lead := fmt.Sprintf("The engine's hit rate is %.2f %% and its reads average %.0f cycles", hit, engLat)
	switch r.cfg.setup {
	case SetupConflict:
		return lead + ": every one of its reads aborts at the TCU (sGFSR.SMCF), so there is nothing here to cost; choose the normal SMMU programming to see the trade-off."
	case SetupClientPD:
		return lead + ": with the SMMU off for clients the TBU looks nothing up and caches nothing, so the bit costs the engine nothing, and nothing protects memory from its untranslated IOVAs."
	}
	return lead + fmt.Sprintf(": cached bypass entries take TLB ways from its translations (the reviewer's \"increased TLB contention against other workloads\"), while with the bypass not cached the NIC's TCU trips hold the walk slots the engine's misses need (%d misses held). Its hits do not queue behind the NIC's trips: the NIC, the engine, the TCU's walks and the core each ask the one memory system when they reach it.", r.tbu.Stats.WalkStalls)
}

// setupStep says what a mistaken SMMU programming (smmu-setup) does, at
// the first hazard it caused; empty for the normal setup.
func (r *run) setupStep() scenario.Step {
	faults, n := r.s.Faults()
	first := func(kind smmu.FaultKind) (smmu.FaultRecord, bool) {
		for _, f := range faults {
			if f.Kind == kind && f.SID == engineSID {
				return f, true
			}
		}
		return smmu.FaultRecord{}, false
	}
	st := scenario.Step{T: r.last * 17 / 32}
	switch r.cfg.setup {
	case SetupConflict:
		st.Title = "Two SMRs match the engine: SMCF"
		st.Text = fmt.Sprintf("SMR 0 (ID %#x) and a catch-all bypass group (ID %#x, MASK %#x) both match the engine's StreamID %#x. The stream match must find one group: two is a stream-match conflict, so the TCU records sGFSR.SMCF and aborts the transaction. ", engineSID, conflictSMR.ID, conflictSMR.Mask, engineSID)
		if f, ok := first(smmu.FaultSMCF); ok {
			st.T = max(f.T, r.first)
			st.Text += fmt.Sprintf("The first at %v; every engine read aborts (%d SMMU faults in all), none reaches memory. The NIC's StreamID matches neither and runs as before.", f.T, n)
		}
	case SetupOutside:
		st.Title = "The engine reads an unmapped page: FSR.TF"
		last := engIOVA + (r.wsPages-1)<<12
		st.Text = fmt.Sprintf("The last 4 KiB page of the engine's window (IOVA %#x) is not mapped in context bank 0, as if the driver had unmapped it while the engine still used it. A read there walks the tables, finds an invalid descriptor, records a translation fault (FSR.TF) with the context bank and address, and aborts; a fault is not cached, so every read of that page walks again. ", last)
		if f, ok := first(smmu.FaultTF); ok {
			st.T = max(f.T, r.first)
			st.Text += fmt.Sprintf("The first at %v (level %d); %d in all, about one read in %d.", f.T, f.Level, n, r.wsPages)
		}
	case SetupClientPD:
		st.Title = "sCR0.CLIENTPD: the SMMU is off"
		st.Text = fmt.Sprintf("With sCR0.CLIENTPD=1 the SMMU passes every client transaction through untranslated, without a stream match or a TBU lookup: no fault is raised, but the engine's IOVAs (from %#x) reach memory as physical addresses, %d transactions here, the first listed as hazards. Nothing is cached, so both policies are the same.", uint64(engIOVA), r.st.untranslated)
		if len(r.st.untransHaz) > 0 {
			st.T = max(r.st.untransHaz[0].T, r.first)
		}
	}
	return st
}

// stageText says how the engine's context bank walks (engine-stage).
func (r *run) stageText() string {
	tcu := r.s.TCUStats()
	per := ratio(tcu.WalkReads, tcu.Walks)
	switch r.cfg.stage {
	case StageNested:
		return fmt.Sprintf(" The engine's context bank is nested, a guest's stage 1 under a hypervisor's stage 2: the walker translates each stage-1 descriptor address and the output IPA through stage 2, up to 24 descriptor reads a walk without walk-cache hits (%.2f a walk in this run, with them).", per)
	case StageS2:
		return fmt.Sprintf(" The engine's context bank is stage 2 alone: the same LPAE walk as stage 1, so in this model it costs the same (%.2f descriptor reads a walk).", per)
	}
	return ""
}

// pdText qualifies the TBU's step with the SMMU off.
func pdText(regs smmu.Regs) string {
	if regs.CR0&smmu.CR0ClientPD != 0 {
		return " Here, with sCR0.CLIENTPD=1, it looks nothing up and stays empty."
	}
	return ""
}

// hitWords is the TBU hit time in words ("2 cycles", "3 cycles (2, plus
// 1 for the register slices)").
func hitWords(sc smmu.Config) string {
	if sc.RegisterSlices {
		return fmt.Sprintf("%d cycles (%d, plus 1 for the register slices)", sc.HitCyclesWithSlices(), sc.HitCycles)
	}
	return fmt.Sprintf("%d cycles", sc.HitCyclesWithSlices())
}

// nicRoute is what the stream-match lookup decides for the NIC.
func (r *run) nicRoute() smmu.Decision { return r.s.Regs.Decide(nicSID) }

// routeStep says what the stream match does with the NIC's StreamID.
func (r *run) routeStep() scenario.Step {
	d := r.nicRoute()
	// When the NIC's first transaction is back: its route is on the stage
	// (after the first transaction's step, which may be the same one's issue).
	st := scenario.Step{T: max(r.first, r.st.nicFirst.done, r.st.firstTxn.issue+1)}
	switch {
	case d.Route == smmu.RouteDisabled:
		st.Title = "The SMMU is off for clients"
		st.Text = fmt.Sprintf("sCR0.CLIENTPD=1: the SMMU does not match StreamIDs at all. The NIC's transactions (StreamID %#x) pass through untranslated, like the engine's, without a TBU lookup or a trip to the TCU.", nicSID)
	case d.Route == smmu.RouteFault && d.Fault == smmu.FaultUSF:
		st.Title = "Nothing matches: a fault"
		st.Text = fmt.Sprintf("The NIC's StreamID %#x matches no stream-match register. Booted with arm-smmu.disable_bypass=1, mainline's default since v5.2, Linux sets sCR0.USFCFG=1: an unmatched stream is an unidentified-stream fault. The TCU records sGFSR.USF, the kernel logs \"Blocked unknown Stream ID %#x; boot with \"arm-smmu.disable_bypass=0\" to allow, but this may have security implications\", and every NIC transaction aborts without reaching memory (%d aborted in this run, every frame dropped). The published figure ran with disable_bypass=0: NXP's LS2088A needed it.", nicSID, nicSID, r.st.aborts)
	case d.Route == smmu.RouteBypass:
		s := r.s.Regs.SMR[d.SMR]
		st.Title = "An SMR matches: S2CR bypass"
		st.Text = fmt.Sprintf("The NIC's StreamID %#x matches SMR %d (ID %#x, MASK %#x), whose S2CR says bypass: no translation. sCR0.USFCFG only decides streams that match nothing, so it does not apply here (it is %d). The TBU still looks the stream up first.", nicSID, d.SMR, s.ID, s.Mask, usfBit(r.s.Regs))
	default:
		st.Title = "Nothing matches"
		st.Text = fmt.Sprintf("The NIC's StreamID %#x matches no stream-match register. Booted with arm-smmu.disable_bypass=0, as the published figure ran, sCR0.USFCFG=0 and it bypasses translation, but the TBU still looks it up first. (Mainline's default since v5.2 is disable_bypass=1: USFCFG=1, an unmatched StreamID faults and its frames are dropped.)", nicSID)
	}
	return st
}

func usfBit(regs smmu.Regs) int {
	if regs.CR0&smmu.CR0USFCFG != 0 {
		return 1
	}
	return 0
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// cachingStep says which sACR bit decides whether the NIC's route is
// cached and what its reads cost.
func (r *run) cachingStep(lat float64) scenario.Step {
	sc := r.s.Config()
	d := r.nicRoute()
	st := scenario.Step{T: r.last / 2, Title: "What caching a bypass buys"}
	smtnmb, s2crb := r.acr&smmu.ACRSMTNMBTLBEN != 0, r.acr&smmu.ACRS2CRBTLBEN != 0
	switch d.Route {
	case smmu.RouteDisabled:
		st.Text = fmt.Sprintf("Nothing is looked up or cached with the SMMU off, so SMTNMB_TLBEN (%s) changes nothing: the NIC's reads average %.0f platform cycles, the pass-through (charged as a TBU hit, %s) and the read path.", onOff(smtnmb), lat, hitWords(sc))
	case smmu.RouteFault:
		st.Text = fmt.Sprintf("Nothing is cached for the NIC: a fault is never held in the TBU, so each of its transactions goes to the TCU and comes back aborted (SMTNMB_TLBEN is %s and changes nothing here), with no data.", onOff(smtnmb))
		if r.st.nicReads == 0 {
			st.Text += " Its frame writes abort, so no frame is read back to be sent: the NIC makes no read here."
		} else {
			st.Text += fmt.Sprintf(" Its reads \"complete\" in %.0f platform cycles: the TBU-TCU round trip to the abort.", lat)
		}
	case smmu.RouteBypass:
		st.Text = fmt.Sprintf("For an S2CR bypass the bit is S2CRB_TLBEN, here %s (SMTNMB_TLBEN, %s, covers only streams that match nothing). The NIC's reads average %.0f platform cycles: ", onOff(s2crb), onOff(smtnmb), lat)
		if s2crb {
			st.Text += fmt.Sprintf("the bypass is held as an identity entry and hits in the TBU (%s, then the read path).", hitWords(sc))
		} else {
			st.Text += "every bypassed transaction misses in the TBU and goes to the TCU and back."
		}
	default:
		st.Text = fmt.Sprintf("SMTNMB_TLBEN is %s: the NIC's reads average %.0f platform cycles. ", onOff(smtnmb), lat)
		if smtnmb {
			st.Text += fmt.Sprintf("The bypass is held as an identity entry and hits in the TBU (%s, then the read path); off, every bypassed transaction would go to the TCU and back.", hitWords(sc))
		} else {
			st.Text += "Every bypassed transaction misses in the TBU and goes to the TCU and back; with the bit on the bypass is held as an identity entry and hits in the TBU."
		}
	}
	return st
}

// calibrationStep says which figure the model is calibrated to and what
// it predicts: the bit-on latency is the TBU hit, the port and the read
// path below the SMMU, from the machine's own latencies.
func (r *run) calibrationStep() scenario.Step {
	sc := r.s.Config()
	io := r.m.IOTimes()
	cyc := func(t sim.Time) float64 { return sc.Clock.InCycles(t) }
	text := fmt.Sprintf("Published for the LS2088A under DPDK l3fwd: about 140 platform cycles with SMTNMB_TLBEN off, about 50 on. "+
		"The 140 is matched by calibration: the ls2088a preset's TBU-TCU link (%d cycles a trip) is fitted to it. The 50 is a prediction: "+
		"the TBU hit (%s), the port to the interconnect (%.0f cycles) and the read below, set by the machine's own latencies: "+
		"a snoop of the core's cluster %.0f cycles (a frame's first line, rewritten by the core), its L3 %.0f, DRAM %.0f. %s",
		sc.LinkCycles, hitWords(sc), cyc(sc.Bus.Port), cyc(io.Snoop), cyc(io.L3), cyc(io.DRAM), r.servedText())
	if def, err := defaultConfig(); err == nil && def != r.cfg {
		text += " These are not the figure's defaults: no comparison here."
	}
	return scenario.Step{T: r.last * 9 / 16, Title: "Published figures: one calibrated, one predicted", Text: text}
}

// servedText says where the NIC's reads were answered in this run.
func (r *run) servedText() string {
	n := r.st.nicServed
	all := n[soc.ServedSnoop] + n[soc.ServedL3] + n[soc.ServedDRAM]
	if all == 0 {
		return "No NIC read reached memory in this run."
	}
	pct := func(k soc.Served) float64 { return 100 * float64(n[k]) / float64(all) }
	return fmt.Sprintf("Here %.0f %% of the NIC's reads were answered by a snoop, %.0f %% by the L3, %.0f %% by DRAM.",
		pct(soc.ServedSnoop), pct(soc.ServedL3), pct(soc.ServedDRAM))
}

// defaultConfig is the config of the spec's defaults.
func defaultConfig() (config, error) {
	spec := New().Spec()
	p, err := spec.Defaults()
	if err != nil {
		return config{}, err
	}
	return parse(spec, p)
}

// forwardingStep says whether the offered load bounds the forwarding rate
// and, from the settings, where the limits above it lie: the TBU's walk
// slots when the NIC's transactions go to the TCU, and the core's share
// of a packet (as measured in this run).
func (r *run) forwardingStep(res *scenario.Result) scenario.Step {
	c := r.cfg
	sc := r.s.Config()
	pps, _ := res.Metric("forward_pps")
	pktLat, _ := res.Metric("packet_latency_us")
	busy, _ := res.Metric("core_busy_pct")
	frame := float64(c.packet+20) * 8 // bits on the wire per frame
	offered := c.rate / frame
	st := scenario.Step{T: r.last * 5 / 8, Title: "What bounds the forwarding rate"}
	if r.dropped > 0 {
		st.Text = fmt.Sprintf("forward_pps is %.3g Mpps: %d of %d frames were dropped because a DMA transaction of theirs aborted (the frame descriptor then carries a system bus error and the frame is discarded), and a dropped frame is not forwarded.", pps/1e6, r.dropped, c.packets)
		if r.nicRoute().Route == smmu.RouteFault {
			st.Text += " Every NIC transaction aborts here: nothing the NIC writes or reads reaches memory."
		}
		return st
	}
	switch {
	case pps >= 0.99*offered:
		st.Text = fmt.Sprintf("forward_pps is %.3g Mpps, the offered load (%g Gbit/s of %d B frames with 20 B of preamble and gap: %.3g Mpps). At these settings the line rate bounds the forwarding rate, so the bit changes each packet's latency (%.2f us from arrival to TX done here), not the rate.", pps/1e6, c.rate/1e9, c.packet, offered/1e6, pktLat)
	case busy >= 98:
		st.Text = fmt.Sprintf("forward_pps is %.3g Mpps, below the offered %.3g Mpps (%g Gbit/s of %d B frames): the core bounds the forwarding rate, busy %.0f %% of the run, and the frames wait in the ring for it (%.2f us from arrival to TX done).", pps/1e6, offered/1e6, c.rate/1e9, c.packet, busy, pktLat)
	default:
		st.Text = fmt.Sprintf("forward_pps is %.3g Mpps, below the offered %.3g Mpps (%g Gbit/s of %d B frames) with the core busy %.0f %% of the run: the frames back up in the ring behind the NIC's DMA.", pps/1e6, offered/1e6, c.rate/1e9, c.packet, busy)
	}
	// Each NIC transaction that goes to the TCU holds a walk slot from
	// the lookup to the answer's return.
	n := txnsPerPacket(c)
	hold := float64(sc.HitCyclesWithSlices() + 2*sc.LinkCycles + sc.MatchCycles)
	walkCap := float64(sc.Clock) * float64(sc.Walks) / (float64(n) * hold)
	if r.nicRoute().Route != smmu.RouteDisabled {
		st.Text += fmt.Sprintf(" When the NIC's route is not cached, each of a frame's %d transactions holds one of the TBU's %d walk slots for its TCU round trip (%.0f cycles): at most about %.3g Mpps, a line rate of about %.3g Gbit/s at this frame size; above that the cached bypass forwards more.", n, sc.Walks, hold, walkCap/1e6, walkCap*frame/1e9)
	}
	if r.st.coreFrames > 0 && r.st.coreBusy > 0 {
		per := float64(r.st.coreBusy) / float64(r.st.coreFrames) // ps per frame
		st.Text += fmt.Sprintf(" The core's share of a frame (%.0f ns in this run) allows at most about %.3g Mpps whatever the bit.", per/1e3, 1e12/per/1e6)
	}
	return st
}
