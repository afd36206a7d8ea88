package sgsync

import (
	"strings"
	"sync"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// On the SWIOTLB path and with a coherent device the two DSB policies make
// the same machine do the same thing (SWIOTLB waits per entry under either
// policy; a coherent device needs no maintenance, so there is nothing to
// wait for), and the page runs A and B one after the other with the same
// parameters. The last run is therefore kept, and a run whose parameters
// and effective policy equal it returns a copy of its result under its own
// policy id instead of simulating the same thing again. The result is the
// same either way (a test checks it); only the time to compute it halves.

var last struct {
	sync.Mutex
	key string
	res *scenario.Result
}

// effective is the policy as the machine sees it on c's path.
func effective(c config, pol policy) policy {
	if shares(c) {
		pol.perEntry = false
	}
	return pol
}

// runKey identifies a run by its resolved parameters and effective policy.
func runKey(spec *scenario.Spec, full scenario.Params, c config, pol policy) string {
	var b strings.Builder
	for _, d := range spec.Params {
		b.WriteString(d.Name)
		b.WriteByte('=')
		b.WriteString(full[d.Name].Text)
		b.WriteByte('&')
	}
	e := effective(c, pol)
	for _, f := range []bool{e.perEntry, e.skipDevice, e.skipUnmap} {
		if f {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// shares reports whether runs on c's path can share a simulation.
func shares(c config) bool { return c.path == pathSWIOTLB || c.path == pathCoherent }

// recall returns a copy of the last result if key matches it (on the paths
// where policies share their simulation).
func recall(c config, key, policyID string) *scenario.Result {
	if !shares(c) {
		return nil
	}
	last.Lock()
	defer last.Unlock()
	if last.res == nil || last.key != key {
		return nil
	}
	res := *last.res // the slices and the timeline are shared, read-only
	res.Policy = policyID
	return &res
}

func remember(c config, key string, res *scenario.Result) {
	if !shares(c) {
		return
	}
	last.Lock()
	last.key, last.res = key, res
	last.Unlock()
}

// forget drops the kept result (tests).
func forget() {
	last.Lock()
	last.key, last.res = "", nil
	last.Unlock()
}
