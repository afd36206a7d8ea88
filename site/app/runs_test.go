package app

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/play"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/site/control"
)

type lock struct{ sync.Mutex }

func (l *lock) UnlockRender() { l.Unlock() }

// started runs what the setting needs through the runner, as the page
// does, and waits for its end (and the headline sweep's, if one starts).
func started(t *testing.T, r *Runs) control.RunState {
	t.Helper()
	r.Env.Lock()
	r.Start()
	r.Env.UnlockRender()
	require.Eventually(t, func() bool { st := r.Ctl.Run(); return !st.Running && !st.Sweeping }, 60*time.Second, time.Millisecond)
	return r.Ctl.Run()
}

// TestThePageRerunsOnlyWhatChanged: through the runner, as in the page, a
// change to B alone simulates B only and leaves A's result object (and
// the player's) untouched; swapping A and B simulates nothing; the
// headline sweep runs through the same runner after the main run.
func TestThePageRerunsOnlyWhatChanged(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=etr&buffer=256KiB&laps=1")
	ctl := control.New()
	var firsts int
	r := &Runs{App: a, Ctl: ctl, Env: &lock{}, First: func() { firsts++ }}
	st := started(t, r)
	require.Empty(t, st.Err)
	require.NotNil(t, a.A)
	assert.Equal(t, [2]bool{true, true}, st.Sides)
	assert.NotNil(t, a.HeadlineChart(), "the headline sweep did not run after the main run")
	ra := a.A
	before := fmt.Sprint(ra.Metrics, ra.Checks, ra.End, len(ra.Narration), len(ra.Hazards))
	var other string
	for _, p := range a.Spec.Policies {
		if p.ID != a.State.A && p.ID != a.State.B {
			other = p.ID
			break
		}
	}
	require.NotEmpty(t, other)

	require.True(t, a.SetPolicy(1, other))
	st = started(t, r)
	assert.Equal(t, [2]bool{false, true}, st.Sides, "a change to B alone simulated A")
	assert.Equal(t, uint64(2), st.Gen)
	assert.Same(t, ra, a.A, "A's result object was replaced")
	assert.Equal(t, before, fmt.Sprint(ra.Metrics, ra.Checks, ra.End, len(ra.Narration), len(ra.Hazards)), "A's result changed")
	assert.Equal(t, other, a.B.Policy)
	var shownA *scenario.Result
	ctl.WithPlayer(func(p *play.Player, _ render.Zoom) { shownA = p.Result(0) })
	assert.Same(t, ra, shownA, "the player plays another A")

	require.True(t, a.SwapPolicies())
	rb := a.B
	st = started(t, r)
	assert.Equal(t, [2]bool{false, false}, st.Sides, "swapping A and B simulated a side")
	assert.Same(t, rb, a.A)
	assert.Same(t, ra, a.B)
	assert.Equal(t, 1, firsts, "First is for the first results only")
}
