package auxmap

import "github.com/dmaviz/dmaviz/model/scenario"

// Lesson sizes: a 256 KiB AUX buffer (64 pages, one walk each with
// order-0 pages) in one pass; for SPE, few enough dd blocks and a
// sampling interval small enough that SPE fills its buffer about once.
var (
	lessonTRBE = []scenario.Setting{{Name: ParamAUX, Value: "256KiB"}, {Name: ParamIterations, Value: "1"}}
	lessonSPE  = []scenario.Setting{{Name: ParamAUX, Value: "256KiB"}, {Name: ParamCount, Value: "500"},
		{Name: ParamInterval, Value: "256"}, {Name: ParamIterations, Value: "1"}}
)

const (
	lessonNoteTRBE = "256 KiB, one pass: 64 pages the trace unit writes in order, one walk per page with order-0 pages against one per 64 KiB run; the branch test's own walks stay."
	lessonNoteSPE  = "256 KiB AUX, 500 dd blocks, a sample every 256 operations: SPE writes its 64 pages about once, one walk each against one per 64 KiB run; dd's own few walks stay."
)
