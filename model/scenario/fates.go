package scenario

import (
	"strconv"
	"strings"
)

// Fates counts what became of the cached copies a run made older than
// memory: a non-coherent device wrote a line (or its bounce slot) while a
// CPU cache held a copy, or the CPU wrote it through a Normal-NC alias.
// A clean copy is then stale (reading it returns old data); a dirty one
// is doomed (its write-back destroys the newer data). Each copy ends once,
// in one of the counts after Stale and Doomed:
//
//	Stale + Doomed = Read + Evicted + Invalidated + Lost + Discarded + Overwritten + Cached
type Fates struct {
	Stale  int64 // clean copies made stale
	Doomed int64 // dirty copies made doomed

	Read        int64 // stale copies the CPU read (each a stale-read hazard)
	Evicted     int64 // stale copies evicted from the last level holding them, unread
	Invalidated int64 // stale copies dropped by DC IVAC/CIVAC (a sync) before any read
	Lost        int64 // doomed copies written back over the newer data
	Discarded   int64 // doomed copies dropped by a DC IVAC that does not clean: the newer data survived
	Overwritten int64 // copies the CPU wrote again, so they held the newest data
	Cached      int64 // copies still cached at the end, stale or doomed
}

// Sub returns f - o, each count (the fates of a run's part after o was
// taken).
func (f Fates) Sub(o Fates) Fates {
	return Fates{Stale: f.Stale - o.Stale, Doomed: f.Doomed - o.Doomed, Read: f.Read - o.Read, Evicted: f.Evicted - o.Evicted,
		Invalidated: f.Invalidated - o.Invalidated, Lost: f.Lost - o.Lost, Discarded: f.Discarded - o.Discarded,
		Overwritten: f.Overwritten - o.Overwritten, Cached: f.Cached}
}

// FateWords are a scenario's words for Fates.Why.
type FateWords struct {
	// Device is who wrote the data, e.g. "the ETR".
	Device string
	// Sync names the maintenance the policy still does, e.g. "dma_unmap_sg"
	// ("" for "the sync").
	Sync string
	// Clause, if set, is the scenario's reason for what became of the
	// stale copies, appended after a colon, e.g. "the data did not wrap
	// (offset 0), so the wrap-blind sync covered the whole buffer".
	Clause string
	// Dirty asks for what became of dirty lines even when there were
	// none (a bug that skips a clean loses data only through them);
	// DirtyClause, if set, is the scenario's reason for it, e.g. "the
	// CPU only read the buffer (cpu=reads)".
	Dirty       bool
	DirtyClause string
}

// Why says in one sentence why a bug policy's run read no stale data and
// lost none, from what became of the copies it made older than memory.
func (f Fates) Why(w FateWords) string {
	dev := w.Device
	if dev == "" {
		dev = "the device"
	}
	sync := w.Sync
	if sync == "" {
		sync = "the sync"
	}
	var parts []string
	add := func(s, clause string) {
		if clause != "" {
			s += ": " + clause
		}
		parts = append(parts, s)
	}
	switch n := f.Stale; {
	case n == 0 && f.Doomed == 0:
		add("nothing the CPU had cached was written by "+dev+", so no cached copy went stale and no dirty line lay under its data", w.Clause)
		return sentence(parts)
	case n == 0:
	case f.Evicted == n:
		add("the CPU's own fills evicted "+all(n, "stale")+" (lines it had cached before "+dev+" wrote them) before it read them, so every read fetched the new data", w.Clause)
	case f.Invalidated == n:
		add("the sync this policy still does ("+sync+") invalidated "+all(n, "stale")+" before the CPU read them", w.Clause)
	default:
		add("of the "+copies(n, "stale")+" "+dev+" left in the caches, "+split(f)+", and none was read", w.Clause)
	}
	switch d := f.Doomed; {
	case d == 0 && w.Dirty:
		add("no line was dirty when "+dev+" wrote it, so no write-back could destroy its data", w.DirtyClause)
	case d == 0:
	case f.Discarded == d:
		add("DC IVAC dropped "+all(d, "dirty")+" "+dev+" wrote under without writing them back (it does not clean on this core), so its data survived", w.DirtyClause)
	default:
		add("of the "+copies(d, "dirty")+" "+dev+" wrote under, "+doomedSplit(f), w.DirtyClause)
	}
	return sentence(parts)
}

// sentence joins parts with semicolons into one sentence.
func sentence(parts []string) string {
	s := strings.Join(parts, "; ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// split lists the ends of the stale copies that have any, e.g. "12
// evicted before being read, 4 invalidated".
func split(f Fates) string {
	var out []string
	add := func(n int64, what string) {
		if n > 0 {
			out = append(out, Thousands(n)+" "+were(n)+" "+what)
		}
	}
	add(f.Evicted, "evicted before being read")
	add(f.Invalidated, "invalidated")
	add(f.Overwritten, "written again by the CPU")
	add(f.Cached, "still cached at the end")
	return strings.Join(out, ", ")
}

// were is "was" for one, "were" for more.
func were(n int64) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// all is "all N stale copies", or "the one stale copy".
func all(n int64, kind string) string {
	if n == 1 {
		return "the one " + kind + " copy"
	}
	return "all " + copies(n, kind)
}

func doomedSplit(f Fates) string {
	var out []string
	if f.Discarded > 0 {
		out = append(out, Thousands(f.Discarded)+" "+were(f.Discarded)+" dropped by DC IVAC without a write-back")
	}
	if left := f.Doomed - f.Discarded - f.Lost; left > 0 {
		out = append(out, Thousands(left)+" "+were(left)+" written again or still cached at the end")
	}
	return strings.Join(out, ", ") + ", and none was written back over new data"
}

// copies is "1 stale copy" or "N stale copies" (kind "stale" or
// "dirty").
func copies(n int64, kind string) string {
	if n == 1 {
		return "1 " + kind + " copy"
	}
	return Thousands(n) + " " + kind + " copies"
}

// Thousands prints n with commas between groups of three digits.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
