package smmubypass

import "github.com/dmaviz/dmaviz/model/scenario"

// lesson is smmu-bypass's lesson size: 300 packets and a 64 KiB
// translated working set, a run of tens of microseconds in which every
// transaction can be followed.
var lesson = []scenario.Setting{{Name: "packets", Value: "300"}, {Name: "ws", Value: "64KiB"}}

const lessonNote = "300 packets against a 64 KiB translated working set: the bypassed NIC's read latency with and without SMTNMB_TLBEN."
