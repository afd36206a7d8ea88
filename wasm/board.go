//go:build js && wasm

package main

import (
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/site/app"
)

// hardware is what the panel's Board section reads of the boards beyond
// the codec's Registry.Hardware: each preset's parameters with their
// provenance.
var hardware = app.Hardware{Params: platform.Parameters}
