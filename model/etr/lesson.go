package etr

import "github.com/dmaviz/dmaviz/model/scenario"

// lesson is the ETR's lesson size: a 16 KiB buffer (256 lines, each a
// cell, all cached by the previous session), an AUX ring as large, and
// one and a half laps, so the data wraps with the oldest byte mid-buffer
// (offset 8 KiB): the no-sync bug reads all 256 lines stale and the
// wrap-blind sync misses the head's 128. A faster trace rate keeps the
// session short beside the copy.
var lesson = []scenario.Setting{
	{Name: ParamBuffer, Value: "16KiB"}, {Name: ParamAUX, Value: "16KiB"},
	{Name: ParamLaps, Value: "1.5"}, {Name: ParamRate, Value: "4000"},
}

const lessonNote = "16 KiB written one and a half times: 256 lines the previous session left cached, data that wraps at 8 KiB; " +
	"both bugs read stale trace, and the Normal-NC copy is still about 3x slower than the synced cacheable one."
