package demo

import "github.com/dmaviz/dmaviz/model/scenario"

// lesson is the demo's lesson size: the parameter's smallest buffer, 64
// lines, each a large square, every one of them read stale by the no-sync
// bug.
var lesson = []scenario.Setting{{Name: "buffer", Value: "4KiB"}}

const lessonNote = "4 KiB: 64 lines, each a square; the earlier read leaves all of them cached, so the bug reads every one stale."
