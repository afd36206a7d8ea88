package smmubypass

import (
	"github.com/dmaviz/dmaviz/model/sim"
)

// The packet workload is DPDK l3fwd on the LS2088A's DPAA2, as l3fwd is
// benchmarked (RFC 2544 practice: 64-byte frames at line rate on one
// port, one queue per lcore):
//
//   - l3fwd (DPDK 16.x/17.x, contemporary with the figure): MAX_PKT_BURST
//     32 frames per poll (rx-burst), RTE_TEST_RX_DESC_DEFAULT 128 (ring),
//     LPM lookup with its 8 built-in routes 1.1.1.0/24 .. 8.1.1.0/24
//     (rte_lpm's tbl24 holds a /24 in one 4-byte entry), the Ethernet
//     header rewritten with 16-byte NEON stores (processx4_step3).
//   - DPAA2 has no RX/TX descriptor rings in DRAM (DPDK's nics/dpaa2
//     guide): frame descriptors go through the queue manager (QBMan) and
//     its software portals, buffers come from a hardware buffer pool. What
//     the NIC (WRIOP) itself reads and writes per frame is the frame data
//     and, on receive, its 64-byte hardware annotation
//     (DPAA2_ETH_RX_HWA_SIZE). On the LS2088A DPDK sets the RX queue's
//     stash control to one line of data and one of annotation
//     (dpaa2_dev_rx_queue_setup: flc 0x14, "1 line data, 1 line
//     annotation"), delivered into the polling core's cluster L2 (the
//     fslmc bus's dpaa2_core_cluster_sdest). The queue manager's own
//     accesses (portals, frame queue state) and the buffer release are
//     not the NIC's transactions: they are left to the core's work
//     (cpu-work) and out of the model.
//   - The NIC reads a frame to transmit when its port is ready for it:
//     one frame time (at the line rate) after the frame before, so a
//     burst's reads are spread over the wire time, not issued at once
//     (assumed: how far ahead of the wire WRIOP fetches is not in the
//     sources found; this is the least).
//   - l3fwd's TX side buffers frames until 32 unless an RX burst brings at
//     least 16 (MAX_TX_BURST): under a throughput test's load the bursts
//     are full and each is sent as it is processed, which the model does
//     for every burst; at light load real l3fwd would hold frames up to
//     BURST_TX_DRAIN_US (100 us), which the model does not (its packet
//     latency is then the lower bound).
//
// A frame's steps: the NIC writes it (and its annotation) into the slot's
// buffer (rxStep); the core's next poll takes it with up to rx-burst
// others (coreBurst); the NIC reads it to transmit (txStep); it is
// forwarded, or dropped if any of its DMA transactions aborted.

// Buffer layout (a DPDK mbuf's data room on DPAA2) and l3fwd's routes;
// each one's provenance is in withProvenance (provenance.go).
const (
	headroom  = 128
	annoOff   = headroom - annoBytes
	annoBytes = 64
	dataRoom  = 2048
	// stashLines is DPDK's stash setting on the LS2088A: one line of
	// frame data and one of annotation.
	stashLines = 1
	// maxChunk is the largest physically contiguous block: the buffers
	// are allocated in such blocks, linearly mapped like DPDK's hugepages
	// (no page walk per frame for the core).
	maxChunk  = 4 << 20
	lineBytes = 64
	// routes and routeStride are l3fwd's LPM table: 8 /24 routes
	// N.1.1.0/24, N = 1..8, so their tbl24 entries are 2^16 entries apart.
	routes      = 8
	routeStride = 1 << 16
)

// bufStride is one frame buffer's size for frames of packet bytes.
func bufStride(packet int) uint64 {
	return headroom + dataRoom*uint64((packet+dataRoom-1)/dataRoom)
}

// slotAddr is the virtual and physical address of packet slot i's buffer.
func (r *run) slotAddr(i int) (va, pa uint64) {
	b := &r.bufs[i/r.perBuf]
	off := uint64(i%r.perBuf) * bufStride(r.cfg.packet)
	return b.VA + off, b.PA(off)
}

// Packet steps.
const (
	stepRX = iota
	stepCore
	stepTX
	stepEnd
)

// packetStep runs packet slot i's next step at t.
func (r *run) packetStep(t sim.Time, i int) {
	p := &r.slots[i]
	step := p.step
	p.step++
	switch step {
	case stepRX: // the frame into a buffer from the pool, then its annotation
		_, pa := r.slotAddr(i)
		r.nicTxns(t, i, pa+headroom, r.cfg.packet, true)
		r.nicTxn(t, i, pa+annoOff, annoBytes, true, stashLines)
	case stepCore: // on the RX queue: the core's next poll takes it
		if p.aborted {
			r.drop(t, i)
			return
		}
		r.core = append(r.core, coreWork{t: t, slot: int32(i)})
		r.m.EndSteps() // the core runs next, before any later step
	case stepTX: // the NIC reads the frame to send it
		_, pa := r.slotAddr(i)
		r.nicTxns(t, i, pa+headroom, r.cfg.packet, false)
	default:
		if p.aborted {
			r.drop(t, i)
			return
		}
		r.forwarded(t, p)
		r.release(t, i)
	}
}

// nicTxns issues the NIC's transactions for n bytes at pa in bursts; a
// write stashes its first stashLines lines.
func (r *run) nicTxns(t sim.Time, i int, pa uint64, n int, write bool) {
	for off := 0; off < n; off += r.cfg.burst {
		stash := 0
		if write && off == 0 {
			stash = stashLines
		}
		r.nicTxn(t, i, pa+uint64(off), min(r.cfg.burst, n-off), write, stash)
	}
}

// nicTxn issues one NIC transaction for packet slot i.
func (r *run) nicTxn(t sim.Time, i int, pa uint64, n int, write bool, stash int) {
	r.slots[i].pending++
	x := &r.txn
	x.SID, x.Addr, x.Bytes, x.Write, x.Agent, x.Tag, x.Early, x.Stash = nicSID, pa, n, write, nicAgent, int32(i), false, uint8(stash)
	r.tbu.IssueTxn(t, x)
}

// coreBurst is the core's poll at t (or when it is free): it takes the
// frames ready by then, up to rx-burst, and for each reads the
// annotation's parse summary and the IPv4 destination (both stashed in
// its L2), looks the route up in tbl24, rewrites the Ethernet header and
// does the rest of its per-frame work; then it sends the burst. It runs
// on the caller's thread (never inside a queued step).
func (r *run) coreBurst(t sim.Time) error {
	r.m.WaitUntil(t)
	now := r.m.Now()
	r.burstBuf = r.burstBuf[:0]
	for r.coreHead < len(r.core) && len(r.burstBuf) < r.cfg.rxBurst && r.core[r.coreHead].t <= now {
		r.burstBuf = append(r.burstBuf, r.core[r.coreHead].slot)
		r.coreHead++
	}
	if r.coreHead == len(r.core) {
		r.core, r.coreHead = r.core[:0], 0
	}
	for _, i := range r.burstBuf {
		if err := r.forward(int(i)); err != nil {
			return err
		}
	}
	end := r.m.Now()
	r.st.coreBusy += end - now
	r.st.coreFrames += uint64(len(r.burstBuf))
	r.st.polls++
	// The burst is on the TX queue at the core's time; the NIC reads each
	// frame when the port is ready for it, one frame time after the one
	// before (as queued steps).
	for _, i := range r.burstBuf {
		at := max(end, r.txNext)
		r.txNext = at + r.interval
		r.schedule(at, evPacket, int(i))
	}
	return nil
}

// forward is the core's per-frame work on slot i.
func (r *run) forward(i int) error {
	p := &r.slots[i]
	va, _ := r.slotAddr(i)
	// The annotation's parse summary (for the mbuf's packet type) and the
	// IPv4 destination: one load in each of the two lines (the frame
	// follows its annotation), one call.
	if _, err := r.m.Read(va+annoOff, headroom-annoOff+lineBytes, lineBytes); err != nil {
		return err
	}
	idx := r.flowIdx[p.id%len(r.flowIdx)]
	if _, err := r.m.Read(r.lpm+uint64(idx)*4, 4, 4); err != nil { // rte_lpm tbl24
		return err
	}
	if _, err := r.m.Write(va+headroom, 16, 16); err != nil { // destination and source MAC
		return err
	}
	r.m.Spend(r.work)
	return nil
}

// forwarded counts packet p as sent at t.
func (r *run) forwarded(t sim.Time, p *pkt) {
	r.done++
	r.st.packetLat += uint64(t - p.t0)
	b := int(t / tputBucket)
	for len(r.st.forwarded) <= b && len(r.st.forwarded) < 4096 {
		r.st.forwarded = append(r.st.forwarded, 0)
	}
	if b < len(r.st.forwarded) {
		r.st.forwarded[b]++
	}
}

// drop ends packet slot i's frame at t without forwarding it: one of its
// DMA transactions aborted (the frame descriptor then carries a system
// bus error, FD_CTRL_SBE, and the frame is discarded).
func (r *run) drop(t sim.Time, i int) {
	r.dropped++
	r.release(t, i)
}

// release frees packet slot i at t (the buffer goes back to the pool) and
// lets the next packet take it.
func (r *run) release(t sim.Time, i int) {
	r.last = max(r.last, t)
	if r.done+r.dropped == r.cfg.packets {
		r.m.EndSteps() // the run ends here
	}
	r.free = append(r.free, int32(i))
	r.arrive(t)
}
