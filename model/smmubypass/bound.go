package smmubypass

import (
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
)

// maxRunTxns bounds the transactions one run models (the NIC's and the
// engine's, weighed by the events each costs, with the packets' own
// steps: estimate): each is a few events on the queue, and the page runs both
// sides (A then B) with the working-set chart, so this keeps every
// allowed setting within 2 s natively and 6 s in the page (the worst
// allowed setting is timed by cmd/corners). The default run counts
// about 1.6 million.
const maxRunTxns = 2.5e6

// chartTxns bounds the transactions of one point of the working-set chart
// (the default point, 2000 packets, counts about 33,000): a setting with
// more per packet runs fewer packets per point, so the chart costs the
// same whatever the packet, burst and engine rate.
const chartTxns = 45000

// stepTxns is what a packet's own steps cost besides its transactions
// (its arrival, the core's share in its burst, three loads and stores
// through the caches with the agents they catch up, the transmit step's
// pacing, its end), counted as transactions (fitted to native CPU time:
// with 6 the default frames at the most packets allowed cost 1.27x per
// counted transaction what the heaviest mixes, 9 KiB frames in 64 B
// bursts, cost).
const stepTxns = 9

// txnsPerPacket is the NIC's transactions per packet: the frame in and
// out in bursts and the annotation.
func txnsPerPacket(c config) int {
	return 2*((c.packet+c.burst-1)/c.burst) + 1
}

// estimate is the work of a run of c, per packet, in transactions: the
// NIC's with the packet's steps, and the engine's reads over the packet's
// share of the run's span. The span is the longest of what can hold the packets back: the wire (line
// rate), the core's work, the latency of a packet's round trip shared by
// the ring, the DRAM channel's bandwidth left by the engine, and, with
// the bypass not cached (side A, the longer), the TBU's walk slots, each
// held by a miss for its trips to the TCU and back.
func estimate(c config, hw soc.Config, sc smmu.Config) (nic, eng float64) {
	n := txnsPerPacket(c)
	// DRAM bytes per packet: the frame and its annotation written (the
	// stashed lines too), the frame read back (at most: its first line is
	// snooped from the core).
	bytes := float64(2*max(c.packet, hw.DRAM.MinBurst) + max(annoBytes, hw.DRAM.MinBurst))
	dram := bytes / max(hw.DRAM.Bandwidth-c.engineRate, hw.DRAM.Bandwidth/8)
	// The engine's reads and the TCU's descriptor reads come from DRAM
	// (no cache holds them), through the SMMU's port.
	read := float64(sc.Bus.Port+hw.IOTimes().DRAM) / 1e12
	hold := float64(2*sc.LinkCycles+sc.MatchCycles+sc.HitCycles) / float64(sc.Clock) / float64(sc.Walks)
	// The engine reads at its rate, or as fast as its streams get their
	// reads back, or as fast as the TBU's walk slots take its misses, when
	// that is slower. A read that misses in the TBU also walks (a retry
	// while the walk slots are taken, one or two descriptor reads, the
	// TCU's answer): it counts as 1+missWeight. The TLB reaches
	// TLBEntries pages; past that most of the engine's reads miss.
	reach := float64(sc.TLBEntries) * 4096
	miss := max(0, 1-reach/float64(c.ws))
	if c.setup == SetupOutside {
		// The window's last page is not mapped: every read of it faults,
		// fills nothing and walks again, whatever the TLB reaches.
		miss = max(miss, 4096/float64(c.ws))
	}
	trip := float64(2*sc.LinkCycles+sc.MatchCycles) / float64(sc.Clock)
	lat := read + float64(sc.HitCycles)/float64(sc.Clock) + miss*trip
	rate := min(c.engineRate, float64(c.streams)*64/lat)
	walk := trip + read // a walk slot's hold: the trips and a descriptor read
	// queue is how long a NIC transaction that goes to the TCU waits for
	// a walk slot behind the engine's misses (each of its streams holds
	// at most one), when the engine reads faster than the slots free:
	// with a small ring the packets then take that wait for each of
	// their transactions in turn (ring=1 with a fast engine missing in
	// the TBU: 21.7 us a packet, where the wire takes 6.7 ns).
	queue := 0.0
	if miss > 0 {
		rate = min(rate, float64(sc.Walks)/walk/miss*64)
		if c.engineRate >= rate {
			queue = float64(c.streams) * miss * walk / float64(sc.Walks)
		}
	}
	// The core's share: its work and two loads from its L2 (the stashed
	// annotation and header lines).
	core := float64(c.cpuWork)/float64(hw.Clocks.CPU) + 2*float64(hw.L2.Latency)/1e12
	span := max(float64(c.packet+20)*8/c.rate, core, 2e-6/float64(c.ring),
		dram, float64(n)*hold, float64(n)*queue/float64(c.ring))
	// A NIC transaction is one event with the bypass cached (B), two
	// without (A: the TCU's answer, then the data), a third when the walk
	// slots are all taken (a retry): two on average.
	// Below the SMMU each line of a transaction is looked up in the
	// core's caches (IOAccess): the frame's lines written and read, the
	// annotation's.
	lines := float64(2*((c.packet+63)/64) + 1)
	return float64(nicWeight*n+stepTxns) + lineWeight*lines, span * rate / 64 * (1 + missWeight*stageWeight(c.stage)*miss)
}

// stageWeight scales missWeight by the engine's context bank: a stage-2
// or nested walk reads more descriptors and walks through two walk caches
// (fitted to the native time per estimated transaction of the heaviest
// faulting mix, 9 KiB frames at 0.1 Gbit/s with the engine at 2.16 GB/s
// over a 16 KiB window: s2 took 1.09x and nested 1.54x what s1's misses
// add to a hit).
func stageWeight(stage string) float64 {
	switch stage {
	case StageS2:
		return 1.1
	case StageNested:
		return 1.55
	}
	return 1
}

// nicWeight is what a NIC transaction counts, averaged over the two
// sides. missWeight is what an engine read's miss adds: its events (a
// retry, one or two descriptor reads, the TCU's answer: about three and a
// half) and the walker's work, which costs more than a hit in the page
// (fitted to the page's time for the slowest-line-rate, fastest-engine
// setting against the default's: without the walker's share it took 1.7x
// the default's time where the other heavy mixes took 0.8-1.2x).
const (
	nicWeight  = 2
	missWeight = 5.5
)

// lineWeight is what each line of the NIC's transactions adds: the
// memory system looks every line up in the core's caches (fitted to
// native CPU time: 9 KiB frames in 4 KiB bursts, 289 lines a packet,
// cost 1.7x per counted transaction what the default frames did).
const lineWeight = 0.06

// board is c's preset with its hardware overrides; the preset must have
// an SMMU.
func board(c config) (platform.Board, error) {
	var hw map[string]float64
	if c.hw != nil {
		hw = *c.hw
	}
	b, err := platform.BoardWith(c.preset, hw)
	if err == nil && b.SMMU == nil {
		err = noMMU500(c.preset)
	}
	return b, err
}

// noMMU500 is the refusal of a preset without an MMU-500 in the model: what
// the scenario needs, what the board has instead, and the presets allowed.
func noMMU500(preset string) error {
	has := "its SMMUs are not described"
	for _, p := range platform.Presets() {
		if p.Name == preset && p.SMMUs != "" {
			has = p.SMMUs
		}
	}
	return fmt.Errorf("preset: smmu-bypass needs an Arm MMU-500 (it switches the MMU-500's sACR.SMTNMB_TLBEN) and %s has none in the model: %s. Allowed: %s",
		preset, has, strings.Join(platform.WithSMMU(), ", "))
}

// perPacket is estimate for c's preset and its SMMU.
func perPacket(c config) (nic, eng float64, err error) {
	b, err := board(c)
	if err != nil {
		return 0, 0, err
	}
	sc := *b.SMMU
	sc.TLBEntries = c.tbuTLB
	nic, eng = estimate(c, b.Config, sc)
	return nic, eng, nil
}

// bound refuses a setting whose run would model more than maxRunTxns
// transactions, naming the fields and the largest packets allowed (or,
// when even the fewest packets are too many, the largest engine rate).
func bound(c config) error {
	nic, eng, err := perPacket(c)
	if err != nil {
		return err
	}
	total := float64(c.packets) * (nic + eng)
	if total <= maxRunTxns {
		return nil
	}
	most := int(maxRunTxns / (nic + eng))
	if most >= minPackets {
		return fmt.Errorf("packets: %d packets of %d B in %d B bursts (%.0f NIC transactions and steps each) with the engine's reads at %g GB/s (about %.3g per packet) make about %.3g modelled transactions; allowed at most %.3g per run: at most %d packets at this packet, burst, line-rate, engine-rate, ws, smmu-setup and engine-stage (or raise burst, or lower packet or engine-rate)",
			c.packets, c.packet, c.burst, nic, c.engineRate/1e9, eng, total, float64(maxRunTxns), most)
	}
	rate := (maxRunTxns/float64(c.packets) - nic) / (eng / c.engineRate)
	return fmt.Errorf("engine-rate: %g GB/s over %d packets at this line-rate, ring, cpu-work, ws, packet, burst, smmu-setup and engine-stage gives about %.3g engine reads (a read that misses the TLB or faults counts more, through a nested context bank more again); allowed at most %.3g modelled transactions per run: at most %.3g GB/s here (lower engine-rate or packets, or raise line-rate)",
		c.engineRate/1e9, c.packets, float64(c.packets)*eng, float64(maxRunTxns), max(rate, 0)/1e9)
}

// chartPoints is the packets per point of the working-set chart: at most
// chartPackets, fewer when a packet models more than the default one, so
// that a point models at most about chartTxns transactions (one packet at
// least).
func chartPoints(c config) int {
	nic, eng, err := perPacket(c)
	if err != nil {
		return min(c.packets, chartPackets)
	}
	return max(1, min(c.packets, chartPackets, int(chartTxns/(nic+eng))))
}
