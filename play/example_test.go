package play_test

import (
	"context"
	"fmt"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/play"
)

// Step through the demo's narration with A on the Normal-NC buffer and B on
// the cacheable buffer with a sync, aligned on simulated time: B finishes
// first, and its captions run ahead of A's.
func Example() {
	s := demo.New()
	p, _ := s.Spec().Defaults()
	_ = s.Spec().Set(p, "buffer", "4KiB")
	a, _ := s.Run(context.Background(), p, demo.PolicyNoncacheable, nil)
	b, _ := s.Run(context.Background(), p, demo.PolicyCacheableSync, nil)
	pl := play.New(a, b)
	for {
		sa, _, _ := pl.Caption(play.A)
		sb, _, _ := pl.Caption(play.B)
		fmt.Printf("%-8v A: %-38s B: %s\n", pl.Cursor(), sa.Title, sb.Title)
		if !pl.StepNarration(1) {
			break
		}
	}
	// Output:
	// 0ps      A: The buffer is mapped Normal-NC         B: Earlier, the CPU read the buffer
	// 100ns    A: The device writes the buffer           B: The device writes the buffer
	// 740ns    A: The CPU copies the buffer (Normal-NC)  B: dma_sync_single_for_cpu
	// 924ns    A: The CPU copies the buffer (Normal-NC)  B: The CPU copies the buffer (cached)
	// 2.844us  A: The CPU copies the buffer (Normal-NC)  B: Done
	// 8.676us  A: Done                                   B: Done
}
