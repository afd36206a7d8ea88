package vmapdemo

import "github.com/dmaviz/dmaviz/model/scenario"

// lesson is the vmap demo's lesson size: 64 pages, one walk each with 4
// KiB PTEs against four 64 KiB contiguous entries.
var lesson = []scenario.Setting{{Name: ParamBuffer, Value: "256KiB"}}

const lessonNote = "256 KiB: 64 pages, each a cell; 4 KiB PTEs walk once per page, large vmap once per 64 KiB run."
