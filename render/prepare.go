package render

import (
	"sync"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Prepare does ahead of time, for results about to be shown, the part of
// their first frame that depends neither on the cursor nor on the zoom:
// the page-mapping view's physical strip in PA order for the whole
// buffer (sorting a 1 GiB buffer's 262144 pages was about 40 % of that
// frame). The page calls it from the run's goroutine, between the run's
// slices of work, so the frame that first shows the results, which
// shares the page's thread with everything else, does less. It is safe
// to call from any goroutine; a stage takes what Prepare made once (if
// its window is the one prepared) and Prepare keeps at most a few.
func Prepare(res *scenario.Result) {
	if res == nil || res.Timeline == nil || res.Timeline.Translation == nil {
		return
	}
	win, ok := pageWindow(res.Timeline, Zoom{}) // no zoom: the whole buffer
	if !ok {
		return
	}
	var c pmSorted
	c.fill(res.Timeline.Translation, win)
	c.raw, c.keys = nil, nil // the sort's scratch: a stage makes its own
	prepared.mu.Lock()
	defer prepared.mu.Unlock()
	if len(prepared.list) == maxPrepared {
		prepared.list = append(prepared.list[:0], prepared.list[1:]...)
	}
	prepared.list = append(prepared.list, c)
}

// maxPrepared bounds what Prepare keeps (a 1 GiB buffer of 4 KiB pages
// is about 12 MiB of units): the two sides of the newest results; those
// of a run superseded before it was shown are dropped by the next.
const maxPrepared = 2

var prepared struct {
	mu   sync.Mutex
	list []pmSorted
}

// takePrepared removes and returns what Prepare made for tr's window win.
func takePrepared(tr *timeline.Translation, win pmWindow) (pmSorted, bool) {
	prepared.mu.Lock()
	defer prepared.mu.Unlock()
	for i := range prepared.list {
		if p := prepared.list[i]; p.matches(tr, win) {
			prepared.list = append(prepared.list[:i], prepared.list[i+1:]...)
			return p, true
		}
	}
	return pmSorted{}, false
}
