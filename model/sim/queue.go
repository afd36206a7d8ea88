package sim

// Queue is a priority queue of events ordered by (time, insertion
// sequence): two events at the same Time come out in the order they were
// pushed, so a run never depends on heap internals or the platform. The
// payload type is the caller's (a small struct or an index, not a closure,
// so the queue stays plain data).
type Queue[T any] struct {
	items []queued[T]
	seq   uint64
}

type queued[T any] struct {
	t   Time
	seq uint64
	v   T
}

func (a *queued[T]) before(b *queued[T]) bool {
	return a.t < b.t || (a.t == b.t && a.seq < b.seq)
}

// Len returns the number of queued events.
func (q *Queue[T]) Len() int { return len(q.items) }

// Push queues v at time t.
func (q *Queue[T]) Push(t Time, v T) {
	q.items = append(q.items, queued[T]{t: t, seq: q.seq, v: v})
	q.seq++
	i := len(q.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.items[i].before(&q.items[p]) {
			break
		}
		q.items[i], q.items[p] = q.items[p], q.items[i]
		i = p
	}
}

// Peek returns the time of the earliest event, false when empty.
func (q *Queue[T]) Peek() (Time, bool) {
	if len(q.items) == 0 {
		return 0, false
	}
	return q.items[0].t, true
}

// Pop removes and returns the earliest event; ok is false when empty.
func (q *Queue[T]) Pop() (t Time, v T, ok bool) {
	n := len(q.items)
	if n == 0 {
		return 0, v, false
	}
	top := q.items[0]
	q.items[0] = q.items[n-1]
	var zero queued[T]
	q.items[n-1] = zero
	q.items = q.items[:n-1]
	q.siftDown()
	return top.t, top.v, true
}

// ReplaceTop moves the earliest event to time t with payload v, as Pop
// then Push(t, v) would (it gets a new sequence number), in one sift: a
// process rescheduling itself. It reports false when the queue is empty.
func (q *Queue[T]) ReplaceTop(t Time, v T) bool {
	n := len(q.items)
	if n == 0 {
		return false
	}
	// siftDown, written out with the new event as the root (a call fewer:
	// a step rescheduling itself is most of a run's queue work).
	x := queued[T]{t: t, seq: q.seq, v: v}
	q.seq++
	items := q.items
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && items[r].before(&items[c]) {
			c = r
		}
		if !items[c].before(&x) {
			break
		}
		items[i] = items[c]
		i = c
	}
	items[i] = x
	return true
}

// Top returns the payload of the earliest event (the zero value when
// empty).
func (q *Queue[T]) Top() T {
	var v T
	if len(q.items) > 0 {
		v = q.items[0].v
	}
	return v
}

// siftDown moves the root down to its place (after Pop moved the last
// event there): the earlier child moves up into the hole at each level and
// the root is written once, at the end (half the stores of swapping).
// ReplaceTop has the same loop written out, one call fewer per step.
func (q *Queue[T]) siftDown() {
	items := q.items
	n := len(items)
	if n < 2 {
		return
	}
	x := items[0]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && items[r].before(&items[c]) {
			c = r
		}
		if !items[c].before(&x) {
			break
		}
		items[i] = items[c]
		i = c
	}
	items[i] = x
}
