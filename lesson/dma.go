package lesson

// dma is the DMA lesson: a device and a CPU sharing memory, from a stale
// cached copy to the cost of translation for a device. Every figure is
// the model's at the lesson size (declared in Figures; a test runs them).
var dma = Path{ID: "dma", Title: "DMA and the CPU caches", Stops: []Stop{
	{
		Scenario: "demo", A: "cacheable-no-sync", B: "cacheable-sync",
		Title: "A stale copy costs nothing",
		Question: "The CPU read this 4 KiB buffer a moment ago, so its 64 lines are in its cache. Then a device that does not " +
			"snoop the caches writes new data to DRAM. A copies the buffer through the cache as it is; B first calls " +
			"dma_sync_single_for_cpu. Which copy is faster, and which one copies what the device wrote?",
		Answer: "A is faster, and wrong: 0.256 µs, every line a cache hit, all 4,096 bytes stale (the data from before the " +
			"device wrote). B spends 0.184 µs on 64 DC IVAC and one DSB SY, then misses on every line: 2.104 µs, every byte right.",
		Watch: "While the device writes, A's cached lines become stale copies; B's DC IVAC sweep drops them, and its copy " +
			"fills each line again from DRAM.",
		Note: Note{
			Point: "A's buffer grid just after the device write: every line is a stale copy, and the hazard list names " +
				"the bytes. Then B's sweep of invalidates.",
			Quote: "A 0.256 µs and wrong against B 2.104 µs and right: the correct copy is 8.2x slower here.",
			Misconception: "\"The cache only makes things faster.\" A non-coherent device writes DRAM and never touches the " +
				"CPU caches, and nothing marks the old copies. The bug is the fast side, which is how it survives testing. " +
				"The demo's costs are not calibrated: only their order matters.",
		},
		Figures: []Figure{
			{Side: 'A', Metric: "readout_us", Text: "0.256"},
			{Side: 'A', Metric: "stale_bytes", Text: "4,096"},
			{Side: 'B', Metric: "sync_us", Text: "0.184"},
			{Side: 'B', Metric: "dc_ops", Text: "64", Given: true},
			{Side: 'B', Metric: "readout_us", Text: "2.104"},
			{Ratio: "B/A", Metric: "readout_us", Text: "8.2"},
		},
	},
	{
		Scenario: "etr", A: "coherent", B: "cached-sync-whole-when-full",
		Title: "Uncached is safe, and slow",
		Question: "The trace sink (ETR) filled its 16 KiB ring one and a half times. A reads it through the uncached " +
			"(Normal-NC) mapping dma_alloc_coherent gives. B's buffer is cacheable, so the driver first invalidates it " +
			"with dma_sync_single_for_cpu, then copies. Which side finishes tmc_update_etr_buffer first, and by how much?",
		Answer: "B, about 2.5x sooner: 13.1 µs against 32.7 µs. A's copy alone takes 31.8 µs (515 MB/s): each 16-byte " +
			"load is its own DRAM read, with no line fill and no prefetch. B spends 5.4 µs invalidating 256 lines, then " +
			"copies at 2477 MB/s.",
		Watch: "The ETR's writes turn B's cached lines into stale copies; B's invalidate sweep clears them and its copy " +
			"races through, while A's copy crawls across the buffer.",
		Note: Note{
			Point: "B's sync sweep, then the two copies' speeds. The one red, hatched line on B is a finding, not a bug " +
				"policy: the previous session's barrier packet, written through the cacheable mapping and never synced " +
				"for the device, is written back over new trace by DC IVAC (which cleans on this core): 64 bytes stale.",
			Quote: "32.7 µs against 13.1 µs. At the paper size (4 MiB, Juno r2) the model gives 8148 µs (calibrated to " +
				"the published 8148) against 3066 µs (published: 2525).",
			Misconception: "\"Uncached is the safe, cheap choice for a DMA buffer.\" Safe, yes, but every load is a DRAM " +
				"round trip. Then switch A to the wrap-blind sync (bug): the oldest trace starts at the write pointer, " +
				"and syncing only from there to the end misses the head that wrapped: 8,256 bytes stale.",
		},
		Figures: []Figure{
			{Ratio: "A/B", Metric: "update_etr_buffer_us", Text: "2.5"},
			{Side: 'B', Metric: "update_etr_buffer_us", Text: "13.1"},
			{Side: 'A', Metric: "update_etr_buffer_us", Text: "32.7"},
			{Side: 'A', Metric: "copy_us", Text: "31.8"},
			{Side: 'A', Metric: "copy_mb_s", Text: "515"},
			{Side: 'B', Metric: "sync_us", Text: "5.4"},
			{Side: 'B', Metric: "dc_ivac", Text: "256", Given: true},
			{Side: 'B', Metric: "copy_mb_s", Text: "2477"},
			{Side: 'B', Metric: "stale_bytes", Text: "64"},
			{Side: 'A', Paper: true, Metric: "update_etr_buffer_us", Text: "8148"},
			{Side: 'B', Paper: true, Metric: "update_etr_buffer_us", Text: "3066"},
			{Policy: "cached-wrong-wrap-sync", Metric: "stale_bytes", Text: "8,256"},
		},
	},
	{
		Scenario: "sg-sync", A: "per-entry-dsb", B: "batched-dsb",
		Title: "One barrier is enough",
		Question: "dma_map_sg must clean (DC CVAC) 8 entries of 32 lines, and each clean completes about a DRAM round " +
			"trip after it is issued. A waits with a DSB SY after every entry, as Linux did before 7.1; B issues all 256 " +
			"cleans and waits once. Is B safe? What does it save?",
		Answer: "Safe: a DSB SY waits for every DC op issued before it, and the device starts only after the call " +
			"returns. A waits 8 times per call, B once: dma_map_sg takes 1.644 µs against 0.681 µs, dma_unmap_sg " +
			"1.644 µs against 0.570 µs.",
		Watch: "A's gauge of DC ops not yet waited for fills and drains 8 times, the core idle in each wait (the gaps " +
			"on its cpu lane); B's fills once.",
		Note: Note{
			Point: "The \"DC ops not yet waited for\" gauge on each side, and the gaps in A's cpu lane.",
			Quote: "Barrier stalls per call: 1.228 µs against 0.182 µs.",
			Misconception: "\"Each entry must be finished before the next one starts.\" DC ops by VA to the point of " +
				"coherency do not depend on one another; only the device's start must wait for all of them. To show why " +
				"the clean matters for a device that only writes, switch B to \"no clean for the device (bug)\": the " +
				"CPU's dirty lines are written back over the device's data, 16,384 bytes lost.",
		},
		Figures: []Figure{
			{Side: 'A', Metric: "dsb_count", Text: "8", Given: true},
			{Side: 'A', Metric: "map_sg_us", Text: "1.644"},
			{Side: 'B', Metric: "map_sg_us", Text: "0.681"},
			{Side: 'A', Metric: "unmap_sg_us", Text: "1.644"},
			{Side: 'B', Metric: "unmap_sg_us", Text: "0.570"},
			{Side: 'A', Metric: "dsb_stall_us", Text: "1.228"},
			{Side: 'B', Metric: "dsb_stall_us", Text: "0.182"},
			{Policy: "skip-sync-for-device", Metric: "lost_bytes", Text: "16,384"},
		},
	},
	{
		Scenario: "trbe-aux", A: "order0", B: "prefer-large",
		Title: "Trace units miss in the TLB too",
		Question: "TRBE writes its 256 KiB AUX buffer (64 pages) in order, through virtual addresses, with a one-entry " +
			"TLB of its own. How many page-table walks does it need when every page has its own 4 KiB entry? And when " +
			"the pages come as contiguous, aligned 64 KiB pieces mapped with 64 KiB entries?",
		Answer: "64 walks, one per page, against 4, one per 64 KiB run of 16 pages. The trace unit waits 2.95 µs " +
			"against 2.38 µs per pass. perf's l2d_tlb_refill reads 208 against 148: it counts every walk on the core, " +
			"the branch test's own included (128 for instructions, 16 for data).",
		Watch: "The page map: A's 64 small entries against B's four 64 KiB runs, and a walk each time the trace " +
			"pointer crosses into an entry it has not translated. A's virtual buffer is cut into 8 numbered bins of " +
			"colour and each physical frame carries its bin's colour: the colours come back scattered, mostly in " +
			"reverse order, so neighbouring pages are not neighbours in memory; one line joins the page being " +
			"written (the one the walk below is for) to its frame.",
		Note: Note{
			Point: "The walks as the trace pointer moves: one per page on A, one per 16 pages on B.",
			Quote: "64 walks against 4; l2d_tlb_refill 208 against 148.",
			Misconception: "\"Contiguous pages are enough.\" Switch B to \"PREFER_LARGE chunks, mainline vmap\": the " +
				"same contiguous pages mapped with 4 KiB entries still cost 19 walks (the core's L2 TLB coalesces at " +
				"most four pages); the larger mapping is what saves them. And the trace unit's misses never show in " +
				"l1d_tlb_refill or dtlb_walk.",
		},
		Figures: []Figure{
			{Side: 'A', Metric: "walks_by_trace_unit", Text: "64"},
			{Side: 'B', Metric: "walks_by_trace_unit", Text: "4"},
			{Side: 'A', Metric: "trace_stall_us", Text: "2.95"},
			{Side: 'B', Metric: "trace_stall_us", Text: "2.38"},
			{Side: 'A', Metric: "l2d_tlb_refill", Text: "208"},
			{Side: 'B', Metric: "l2d_tlb_refill", Text: "148"},
			{Side: 'A', Metric: "itlb_walk", Text: "128"},
			{Side: 'A', Metric: "dtlb_walk", Text: "16"},
			{Policy: "prefer-large-4k-vmap", Metric: "walks_by_trace_unit", Text: "19"},
		},
	},
	{
		Scenario: "smmu-bypass", A: "smtnmb-tlben-off", B: "smtnmb-tlben-on",
		Title: "Caching a bypass is not free",
		Question: "The NIC's StreamID matches no stream-match register, so its reads bypass translation. Does the SMMU " +
			"still cost them time? And if the TBU may cache \"bypass\" as if it were a translation (SMTNMB_TLBEN), who " +
			"pays for that?",
		Answer: "Yes: with the bit off, every bypassed read misses in the TBU and goes to the TCU and back, 139.6 " +
			"platform cycles on average; with it on, the bypass hits in the TBU: 37.6 cycles. The other stream pays: " +
			"bypass entries take ways of the 16-entry TBU TLB, and the translated engine's hit rate falls from 95.8 % " +
			"to 89.4 %, its reads slow from 85.6 to 97.1 cycles.",
		Watch: "The TBU's TLB: on B the bypass entry sits among the engine's translations and pushes some out; on A " +
			"every NIC transaction makes the trip to the TCU.",
		Note: Note{
			Point: "The TBU TLB's sets, and the NIC's trips to the TCU on A.",
			Quote: "NIC reads 139.6 against 37.6 cycles. At the paper size the model gives 139.8 (calibrated to the " +
				"published 140) against 37.6 (published: about 50).",
			Misconception: "\"Bypass means the SMMU is out of the way.\" On MMU-500 an unmatched transaction still looks " +
				"up the TBU TLB. Linux's arm_mmu500_reset sets SMTNMB_TLBEN, caching the bypass like an identity " +
				"translation, and that entry competes with translated streams for the same sets. The forwarding rate " +
				"hardly moves here (10.9 against 10.8 Mpps): the core limits it.",
		},
		Figures: []Figure{
			{Side: 'A', Metric: "bypass_read_latency_cycles", Text: "139.6"},
			{Side: 'B', Metric: "bypass_read_latency_cycles", Text: "37.6"},
			{Side: 'A', Metric: "translated_hit_rate", Text: "95.8"},
			{Side: 'B', Metric: "translated_hit_rate", Text: "89.4"},
			{Side: 'A', Metric: "translated_read_latency_cycles", Text: "85.6"},
			{Side: 'B', Metric: "translated_read_latency_cycles", Text: "97.1"},
			{Side: 'A', Paper: true, Metric: "bypass_read_latency_cycles", Text: "139.8"},
			{Side: 'B', Paper: true, Metric: "bypass_read_latency_cycles", Text: "37.6"},
			{Side: 'A', Metric: "forward_pps", Scale: 1e-6, Text: "10.9"},
			{Side: 'B', Metric: "forward_pps", Scale: 1e-6, Text: "10.8"},
		},
	},
}}
