package smmubypass

import "github.com/dmaviz/dmaviz/model/scenario"

// lesson is smmu-bypass's lesson size: 300 packets and a 64 KiB
// translated working set, a run of tens of microseconds in which every
// transaction can be followed, behind a 16-entry TBU TLB, small enough
// that the cached bypass entry visibly takes room from the engine (its
// hit rate about 96 % with the bit off, 89 % with it on; at the preset's
// 512 entries the two are equal).
var lesson = []scenario.Setting{{Name: "packets", Value: "300"}, {Name: "ws", Value: "64KiB"}, {Name: "tbu-tlb", Value: "16"}}

const lessonNote = "300 packets against a 64 KiB translated working set behind a 16-entry TBU TLB: the bypassed NIC's read latency with and without SMTNMB_TLBEN, and the TLB room the cached bypass takes from the other stream."
