package app

import (
	"errors"
	"strings"
	"testing"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/site/control"
)

func TestBadURLValuesBecomeMessagesAndDefaults(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=demo&buffer=huge&a=nope&speed=99")
	if a.State.Scenario != "demo" || a.Spec == nil {
		t.Fatalf("scenario = %q", a.State.Scenario)
	}
	joined := strings.Join(a.Messages, "\n")
	for _, key := range []string{"buffer", "a:", "speed"} {
		if !strings.Contains(joined, key) {
			t.Errorf("messages %q do not name %q", joined, key)
		}
	}
	if a.State.A != a.Spec.DefaultA || a.Texts["buffer"] != a.Spec.Param("buffer").Default {
		t.Errorf("bad values did not fall back to defaults: A=%q buffer=%q", a.State.A, a.Texts["buffer"])
	}
}

func TestSetParamKeepsTheRunningValueOnError(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=demo&buffer=16KiB")
	if a.SetParam("buffer", "1GiB") {
		t.Fatal("an out-of-range value asked for a run")
	}
	if msg := a.Errors["buffer"]; !strings.Contains(msg, "buffer") || !strings.Contains(msg, "4KiB..4MiB") {
		t.Fatalf("error %q does not name the field and range", msg)
	}
	if a.Texts["buffer"] != "1GiB" || a.State.Params.Text("buffer") != "16KiB" {
		t.Fatalf("field shows %q, running value %q", a.Texts["buffer"], a.State.Params.Text("buffer"))
	}
	if !a.SetParam("buffer", "64k") {
		t.Fatal("a valid change did not ask for a run")
	}
	if a.Errors["buffer"] != "" || a.Texts["buffer"] != "64KiB" {
		t.Fatalf("after a valid value: error %q, text %q", a.Errors["buffer"], a.Texts["buffer"])
	}
	if a.SetParam("buffer", "65536") {
		t.Fatal("the same value asked for another run")
	}
}

func TestRunsAreMatchedToTheLatestRequest(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=demo")
	old, err := a.NextRun()
	if err != nil {
		t.Fatal(err)
	}
	req, _ := a.NextRun()
	ra, rb, err := req.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.SetResults(old.Gen, ra, rb, nil) {
		t.Fatal("a stale run's results were taken")
	}
	if !a.Running || a.A != nil {
		t.Fatal("a stale run ended the current one")
	}
	if !a.SetResults(req.Gen, ra, rb, nil) || a.Running || a.A != ra || len(a.Rows()) == 0 {
		t.Fatal("the current run's results were not taken")
	}
	req, _ = a.NextRun()
	if !a.SetResults(req.Gen, nil, nil, errors.New("boom")) || a.RunErr != "boom" || a.A != nil || len(a.Rows()) != 0 {
		t.Fatalf("failed run: RunErr %q, earlier results kept: %v", a.RunErr, a.A != nil)
	}
}

func TestQueryCarriesTheViewAndLinksLeaveEmbedMode(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=demo&embed=1")
	snap := control.Snapshot{Cursor: 1500 * sim.Nanosecond, Speed: 2, Zoom: render.Zoom{First: 8, Count: 16}}
	q := a.Query(snap)
	for _, want := range []string{"scenario=demo", "t=1.5us", "speed=2", "zoom=8%3A16", "embed=1"} {
		if !strings.Contains(q, want) {
			t.Errorf("query %q lacks %q", q, want)
		}
	}
	if l := a.LinkQuery(snap); strings.Contains(l, "embed") || !a.State.Embed {
		t.Errorf("link query %q (embed still %v)", l, a.State.Embed)
	}
	b := New(catalog.Registry(), q)
	if len(b.Messages) != 0 || b.State.ZoomCount != 16 || b.State.Cursor != snap.Cursor {
		t.Errorf("round trip: messages %v, state %+v", b.Messages, b.State)
	}
}

func TestSetScenarioAndPolicies(t *testing.T) {
	a := New(catalog.Registry(), "")
	if a.SetScenario(a.State.Scenario) {
		t.Error("choosing the same scenario asked for a run")
	}
	if a.SetScenario("nope") || len(a.Messages) == 0 {
		t.Error("an unknown scenario was accepted silently")
	}
	if !a.SetPolicy(1, a.Spec.Policies[len(a.Spec.Policies)-1].ID) && a.State.B != a.Spec.Policies[len(a.Spec.Policies)-1].ID {
		t.Error("policy B did not change")
	}
	if a.SetPolicy(0, "nope") {
		t.Error("an unknown policy was accepted")
	}
	before := a.State
	if a.SwapPolicies() && (a.State.A != before.B || a.State.B != before.A) {
		t.Error("swap did not exchange A and B")
	}
}

func TestEmbedCodeEscapes(t *testing.T) {
	code := EmbedCode("https://x.org/dmaviz/index.html", "scenario=demo&b=cacheable-no-sync")
	if !strings.Contains(code, `src="https://x.org/dmaviz/index.html?scenario=demo&amp;b=cacheable-no-sync&amp;embed=1"`) {
		t.Fatalf("embed code %s", code)
	}
	if PageURL("http://h/p/index.html?a=1#x") != "http://h/p/index.html" {
		t.Fatal("PageURL kept the query")
	}
}

type panicky struct{ scenario.Scenario }

func (panicky) Run(scenario.Params, string) (*scenario.Result, error) { panic("index out of range") }

func TestAModelPanicBecomesAFailedRun(t *testing.T) {
	reg := catalog.Registry()
	s, _ := reg.Get("demo")
	req := Request{Scenario: panicky{s}, A: "x", B: "y"}
	ra, rb, err := req.Run(nil)
	if err == nil || ra != nil || rb != nil || !strings.Contains(err.Error(), "internal error in scenario demo: index out of range") {
		t.Fatalf("Run = %v, %v, %v", ra, rb, err)
	}
}
