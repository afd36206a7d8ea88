// Package scenario is the contract between a scenario (a model experiment such
// as the ETR bounce buffer) and everything that shows it: the panel, the URL
// codec, the player, the views and the CLI.
//
// A scenario declares its parameters, policies and reference figures as data
// and turns (Params, policy) into a Result with Run. Adding a scenario means
// registering one more Scenario; no other package changes. What a Result
// records for the views is a timeline.Timeline; scenarios on the simulated
// machine fill it through package hwview. The contract itself imports no
// hardware package.
package scenario

import (
	"context"
	"fmt"
	"sort"

	"github.com/dmaviz/dmaviz/model/provenance"
)

// Scenario is one experiment with two or more policies to compare.
type Scenario interface {
	// Spec describes the scenario: ids, parameters, policies, references.
	Spec() *Spec
	// Run simulates one policy with validated parameters. It never panics on
	// input a user can produce: bad combinations are returned as errors, and
	// hardware faults are modelled outcomes inside the Result. pace, if not
	// nil, hears the run's progress and lets it give way (Pacer); once ctx
	// is done the run stops where it next gives way and returns
	// ErrCanceled. Neither changes what the run computes.
	Run(ctx context.Context, p Params, policy string, pace *Pacer) (*Result, error)
}

// Spec is everything a scenario declares about itself.
type Spec struct {
	ID          string // URL and CLI id, e.g. "etr"
	Title       string
	Explanation string // one paragraph, shown in the panel
	Params      []Param
	Policies    []Policy
	DefaultA    string // policy id shown on side A by default
	DefaultB    string
	// DefaultPreset is the platform preset the scenario opens with. The
	// preset is also a parameter (named "preset"), listed in Params.
	DefaultPreset string
	References    []Reference
	// Constants are the scenario's own hardware and workload constants
	// with their provenance, named "<id>.<name>" (a constant that is also
	// a parameter is named after it, "<id>.<param>", and holds its
	// default). A fitted one makes its figure calibrated (Classify).
	Constants []provenance.Param
	// Overridable lists the paths of Constants a run takes as hardware
	// overrides ("hw.<id>.<name>", Params.SplitHardware), so that the
	// uncertainty bands vary them as they vary a preset's parameters.
	Overridable []string
	// Reads lists, most telling first, the hardware parameters (schema
	// path prefixes: "maint.", "dram.latency") and the scenario's own
	// constants ("etr.rate") its figures depend on. The uncertainty bands
	// vary each assumed one of them alone and every other assumed
	// parameter all together, and say how far those moved the figures.
	Reads []string
	// OnBoard says the scenario builds its machine from the platform
	// preset its "preset" parameter names, so it takes hardware overrides
	// (HardwarePrefix) and its figures can be given uncertainty bands.
	OnBoard bool
	// Headline, if set, is the chart the panel draws for the scenario: its
	// main metric against its main parameter, A and B, computed by a sweep
	// after the main runs.
	Headline *Headline
	// Lesson is the scenario's lesson setting (Size, SizeParams): the
	// parameters whose lesson value differs from the default (the paper
	// setting), in canonical text. LessonNote says in a sentence what the
	// lesson is chosen to show.
	Lesson     []Setting
	LessonNote string
}

// Headline names a scenario's main metric and the sweep of its main
// parameter, e.g. {"update_etr_buffer_us", "buffer=64KiB..4MiB:x2"}. Vary
// is in the sweep syntax (key=lo..hi:xF, key=lo..hi:+S or key=a,b,c); keep
// it cheap: the page runs it on its only thread, so no point should cost
// more than the scenario's default run.
type Headline struct {
	Metric string
	Vary   string
	// AllPolicies draws a line for every policy, not only A and B (each
	// other policy after them, named by its id), for a scenario whose
	// point is how its policies compare.
	AllPolicies bool
}

// Policy is one way of doing the scenario's job (e.g. "coherent").
type Policy struct {
	ID    string
	Title string
	Help  string
	// Bug marks a deliberately wrong policy kept for teaching (e.g. no sync).
	Bug bool
}

// Reference is a published figure shown beside the simulated one.
type Reference struct {
	Metric string // metric name it compares with, e.g. "update_etr_buffer_us"
	Policy string // policy id, or "" for a figure about the A/B pair
	// Pair says how a pair figure (Policy "") compares the two sides of the
	// default A/B pair: PairRatio is A/B (e.g. 3.31x faster), PairChange is
	// (B-A)/A in percent (e.g. -64.61 %).
	Pair  PairKind
	Value float64 // published value, in the metric's unit (or the pair's)
	// Tolerance is the accepted relative deviation (0.1 = 10 %) or, when
	// Absolute is set, the accepted absolute deviation in the metric's unit.
	Tolerance float64
	Absolute  bool
	Source    string // where the figure comes from (commit, list post, board)
	// Fitted lists the parameters solved from this figure: paths of the
	// default preset's parameters, or the scenario's constants. A figure
	// with any is calibrated (the model reproduces it by construction);
	// without, a prediction. Spec.Classify fills it from the provenance
	// tables; scenarios never write it.
	Fitted []string
}

// PairKind says how a pair reference compares A and B.
type PairKind uint8

const (
	PairNone   PairKind = iota // a figure for one policy
	PairRatio                  // A / B
	PairChange                 // (B - A) / A, in percent
)

// Of computes the pair figure for side values a and b; ok is false when it
// is undefined (A is zero).
func (k PairKind) Of(a, b float64) (v float64, ok bool) {
	switch k {
	case PairRatio:
		if b == 0 {
			return 0, false
		}
		return a / b, true
	case PairChange:
		if a == 0 {
			return 0, false
		}
		return (b - a) / a * 100, true
	}
	return 0, false
}

// Within reports whether got matches the reference within its tolerance.
func (r *Reference) Within(got float64) bool {
	d := got - r.Value
	if d < 0 {
		d = -d
	}
	if r.Absolute {
		return d <= r.Tolerance
	}
	ref := r.Value
	if ref < 0 {
		ref = -ref
	}
	return d <= r.Tolerance*ref
}

// Policy returns the policy with the given id or an error naming the choices.
func (s *Spec) Policy(id string) (*Policy, error) {
	for i := range s.Policies {
		if s.Policies[i].ID == id {
			return &s.Policies[i], nil
		}
	}
	ids := make([]string, len(s.Policies))
	for i, p := range s.Policies {
		ids[i] = p.ID
	}
	return nil, fmt.Errorf("policy %q is not one of %v for scenario %s", id, ids, s.ID)
}

// Registry lists scenarios by id.
type Registry struct {
	list []Scenario
	// Hardware reads the "hw.<path>" keys of scenarios on a board; nil:
	// no such keys are allowed.
	Hardware Hardware
}

// Register adds s. A duplicate or empty id is an error.
func (r *Registry) Register(s Scenario) error {
	id := s.Spec().ID
	if id == "" {
		return fmt.Errorf("scenario with empty id")
	}
	for _, o := range r.list {
		if o.Spec().ID == id {
			return fmt.Errorf("scenario %q registered twice", id)
		}
	}
	r.list = append(r.list, s)
	return nil
}

// All returns the scenarios sorted by id.
func (r *Registry) All() []Scenario {
	out := append([]Scenario(nil), r.list...)
	sort.Slice(out, func(i, j int) bool { return out[i].Spec().ID < out[j].Spec().ID })
	return out
}

// Get returns the scenario with the given id or an error listing the ids.
func (r *Registry) Get(id string) (Scenario, error) {
	for _, s := range r.list {
		if s.Spec().ID == id {
			return s, nil
		}
	}
	ids := make([]string, 0, len(r.list))
	for _, s := range r.All() {
		ids = append(ids, s.Spec().ID)
	}
	return nil, fmt.Errorf("scenario %q is not one of %v", id, ids)
}
