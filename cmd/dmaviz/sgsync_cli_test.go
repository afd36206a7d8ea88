package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// dmaviz run sg-sync (table and --json) at the seed's setting: the
// per-call times, DC ops and DSB counts, and the published figure.
func TestRunSGSync(t *testing.T) {
	code, out, errs := call(t, "run", "--json", "sg-sync")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Scenario string
		A, B     struct {
			Policy          string
			Metrics, Checks map[string]float64
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Scenario != "sg-sync" || rep.A.Policy != "per-entry-dsb" || rep.B.Policy != "batched-dsb" {
		t.Fatalf("header %+v", rep)
	}
	a, b := rep.A.Metrics, rep.B.Metrics
	if a["dc_ops"] != 163840 || b["dc_ops"] != 163840 || a["dsb_count"] != 2560 || b["dsb_count"] != 1 {
		t.Errorf("dc_ops %v/%v, dsb_count %v/%v", a["dc_ops"], b["dc_ops"], a["dsb_count"], b["dsb_count"])
	}
	for name, want := range map[string]float64{"map_sg_us": -64.61, "unmap_sg_us": -66.60} {
		got := 100 * (b[name] - a[name]) / a[name]
		if math.Abs(got-want) > 3 {
			t.Errorf("%s: %.2f -> %.2f us is %.2f %%, want %.2f within 3 points", name, a[name], b[name], got, want)
		}
	}
	for _, side := range []map[string]float64{rep.A.Checks, rep.B.Checks} {
		if side["stale_bytes"] != 0 || side["lost_bytes"] != 0 {
			t.Errorf("checks %v", side)
		}
	}
	code, out, errs = call(t, "run", "sg-sync", "--param", "total=64KiB", "--param", "iterations=2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"map_sg_us", "unmap_sg_us", "dsb_count", "dc_ops", "1024", "stale_bytes"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
