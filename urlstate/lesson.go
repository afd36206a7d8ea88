package urlstate

import (
	"sort"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// The lesson path keys: lesson=ID opens a lesson path (package lesson) and
// stop=N its Nth stop, counted from 1.
const (
	KeyLesson = "lesson"
	KeyStop   = "stop"
)

var lessonKeys = []string{KeyLesson, KeyStop}

// decodeLesson reads lesson= and stop= against c.Lessons. A bad lesson
// opens no lesson; a bad stop (or one given without a lesson) the first.
func (c *Codec) decodeLesson(st *State, get func(string) (string, bool), bad func(string, string, ...any)) {
	id, hasLesson := get(KeyLesson)
	stop, hasStop := get(KeyStop)
	var n int
	if hasLesson {
		var ok bool
		if n, ok = c.Lessons[id]; ok {
			st.Lesson, st.Stop = id, 1
		} else {
			bad(KeyLesson, "lesson: %s is not allowed; allowed %s; showing no lesson", scenario.Echo(id), c.lessonIDs())
		}
	}
	if !hasStop {
		return
	}
	if st.Lesson == "" {
		if !hasLesson {
			bad(KeyStop, "stop: given without lesson; ignored")
		}
		return
	}
	k, err := strconv.Atoi(strings.TrimSpace(stop))
	if err != nil || k < 1 || k > n {
		bad(KeyStop, "stop: %s is not allowed; allowed 1..%d; using 1", scenario.Echo(stop), n)
		return
	}
	st.Stop = k
}

func (c *Codec) lessonIDs() string {
	if len(c.Lessons) == 0 {
		return "none (no lessons are registered)"
	}
	ids := make([]string, 0, len(c.Lessons))
	for id := range c.Lessons {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}

// encodeLesson writes lesson= and stop= when a lesson is open.
func encodeLesson(st State, add func(k, v string)) {
	if st.Lesson != "" {
		add(KeyLesson, st.Lesson)
		add(KeyStop, strconv.Itoa(max(st.Stop, 1)))
	}
}
