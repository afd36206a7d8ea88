package sim

// Replace removes the earliest event and queues v at t in its place: the
// same order as Pop then Push(t, v) (v gets the next sequence number), in
// one sift instead of two. It reports false, queueing nothing, when the
// queue is empty. For processes that reschedule themselves on every step.
func (q *Queue[T]) Replace(t Time, v T) bool {
	n := len(q.items)
	if n == 0 {
		return false
	}
	q.items[0] = queued[T]{t: t, seq: q.seq, v: v}
	q.seq++
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && q.items[l].before(&q.items[m]) {
			m = l
		}
		if r < n && q.items[r].before(&q.items[m]) {
			m = r
		}
		if m == i {
			return true
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
}

// Top returns the earliest event without removing it; ok is false when
// empty.
func (q *Queue[T]) Top() (t Time, v T, ok bool) {
	if len(q.items) == 0 {
		return 0, v, false
	}
	return q.items[0].t, q.items[0].v, true
}
