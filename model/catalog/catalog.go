// Package catalog lists every scenario dmaviz ships. The panel, the URL
// codec, the player and the CLI find scenarios only through Registry, so
// adding a scenario is one line here.
package catalog

import (
	"github.com/dmaviz/dmaviz/model/auxmap"
	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/etr"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sgsync"
	"github.com/dmaviz/dmaviz/model/smmubypass"
	"github.com/dmaviz/dmaviz/model/vmapdemo"
)

// Registry returns a fresh registry of every scenario. A registration error
// (a duplicate or empty id) is a programming error caught by this package's
// tests; the returned registry then holds the scenarios that did register.
func Registry() *scenario.Registry {
	r := &scenario.Registry{Hardware: platform.Hardware{}}
	for _, s := range all() {
		_ = r.Register(s)
	}
	return r
}

// all is the list of scenarios; add one line per scenario.
func all() []scenario.Scenario {
	return []scenario.Scenario{
		auxmap.NewTRBE(),
		auxmap.NewSPE(),
		demo.New(),
		etr.New(),
		sgsync.New(),
		smmubypass.New(),
		vmapdemo.New(),
	}
}
