package sgsync

import "github.com/dmaviz/dmaviz/model/scenario"

// lesson is sg-sync's lesson size: 8 entries of 2 KiB, packed, so each
// entry's DSB wait is its own visible step (8 against 1); one transfer,
// and a CPU that writes the buffer first, so the skipped clean has dirty
// lines to write back over the device's data.
var lesson = []scenario.Setting{
	{Name: "total", Value: "16KiB"}, {Name: "entry", Value: "2KiB"}, {Name: "scatter", Value: "false"},
	{Name: "cpu", Value: "writes"}, {Name: "iterations", Value: "1"},
}

const lessonNote = "8 entries of 32 lines, one transfer: 8 barrier waits against 1; the CPU writes the buffer first, " +
	"so skipping the clean loses data and skipping the unmap reads it stale."
