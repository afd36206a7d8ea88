package timeline

import "github.com/dmaviz/dmaviz/model/sim"

// SMMUSpec is what the SMMU view draws besides the timeline's cache window:
// the masters and their StreamIDs, the stream-match table, and a sample of
// transactions with the path each took (master -> TBU -> TCU -> memory).
// Plain data, set once by a scenario that models an SMMU (Timeline.SMMU).
type SMMUSpec struct {
	Label string // e.g. "MMU-500 TBU0"
	// TLB is the Timeline.Caches window holding the TBU's TLB. A line's
	// Writer is the owning master's writer id (see Timeline.Writers) and
	// Dirty marks a cached bypass (an identity entry, no translation).
	TLB int
	// CR0USFCFG and the sACR bits as set for the run.
	USFCFG, SMTNMBTLBEN, S2CRBTLBEN bool
	// ClientPD is sCR0.CLIENTPD: the SMMU is off for clients, no stream
	// match is made and every transaction bypasses.
	ClientPD bool
	// Clock is the SMMU's (platform) clock, for latencies in cycles.
	Clock   sim.Freq
	Masters []SMMUMaster
	SMRs    []SMMUStreamMatch
	// LatencyHist is the NIC-side (first master's) read latency
	// distribution: X a bin's centre in cycles, Y the share of reads in %;
	// the last bin holds every longer read.
	LatencyHist []Point
	// Throughput is packets forwarded per microsecond (Y) over time (X, us).
	Throughput []Point
	// Txns are recorded transactions in issue order (every one at first,
	// then a sample). Invariant: Issue never decreases along the slice.
	Txns []SMMUTxn
}

// SMMUMaster is one master behind the TBU.
type SMMUMaster struct {
	Name   string
	SID    uint16
	Writer uint8 // the writer id its TLB entries carry
	// SMR is the index of the matching stream-match register, -1 for none.
	SMR int
	// Route is the stream-match decision, e.g. "unmatched-bypass", "translate".
	Route string
}

// SMMUStreamMatch is one SMR with its S2CR.
type SMMUStreamMatch struct {
	ID, Mask uint16
	Valid    bool
	Type     string // S2CR type: "translate", "bypass", "fault"
	CB       int    // context bank for "translate"
	// Stage is the bank's translation: "" stage 1, "stage 2", "nested".
	Stage string
}

// Matches reports whether the SMR matches sid (valid, and ((sid xor ID)
// and not Mask) == 0), as the SMMU's stream match compares it.
func (e *SMMUStreamMatch) Matches(sid uint16) bool { return e.Valid && (sid^e.ID)&^e.Mask == 0 }

// Matching returns the SMRs that match sid, in order (two or more is a
// stream-match conflict).
func (sm *SMMUSpec) Matching(sid uint16) []int {
	var out []int
	for i := range sm.SMRs {
		if sm.SMRs[i].Matches(sid) {
			out = append(out, i)
		}
	}
	return out
}

// SMMUTxn is one transaction's path and times.
type SMMUTxn struct {
	Master       uint8 // index into SMMUSpec.Masters
	Write        bool
	Issue        sim.Time
	Accept, Done sim.Time // Invariant: Issue <= Accept <= Done
	Hit          bool     // hit in the TBU TLB
	TCU, Walked  bool     // went to the TCU; the TCU walked tables
	Aborted      bool     // faulted: no memory access
	Addr         uint64
	// Served is where the memory system answered a read (ServedDRAM,
	// ServedL3, ServedSnoop; a write: ServedDRAM).
	Served uint8
}

// Where a read below the SMMU was answered (SMMUTxn.Served).
const (
	ServedDRAM  = iota // no cache held the line
	ServedL3           // the shared L3
	ServedSnoop        // a snoop of the core's caches
)

// TxnsUntil returns how many of the recorded transactions were issued at or
// before t.
func (s *SMMUSpec) TxnsUntil(t sim.Time) int {
	lo, hi := 0, len(s.Txns)
	for lo < hi {
		m := (lo + hi) / 2
		if s.Txns[m].Issue <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// CacheEntry records one way of a cache window like CacheLine, also saying
// who owns it (a TLB entry's stream, as a writer id).
func (r *Recorder) CacheEntry(t sim.Time, cache, index int, tag uint64, valid, dirty bool, owner uint8) {
	var c int64
	if valid {
		c |= 1
	}
	if dirty {
		c |= 2
	}
	r.push(t, EvCache, int32(cache), int64(index), int64(tag), c|int64(owner)<<8)
}
