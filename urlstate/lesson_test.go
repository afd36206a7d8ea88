package urlstate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
)

func lessonCodec() *Codec {
	return &Codec{Registry: catalog.Registry(), DefaultScenario: "demo", Lessons: map[string]int{"dma": 5}}
}

// lesson= and stop= round-trip; a bad value gets one message naming the
// key and the allowed values, and the page goes on (no lesson, or the
// first stop).
func TestLessonKeys(t *testing.T) {
	c := lessonCodec()
	st, msgs := c.Decode("?scenario=etr&lesson=dma&stop=2")
	require.Empty(t, msgs)
	assert.Equal(t, "dma", st.Lesson)
	assert.Equal(t, 2, st.Stop)
	q := c.Encode(st)
	assert.Contains(t, q, "&lesson=dma&stop=2")
	back, msgs := c.Decode(q)
	require.Empty(t, msgs)
	assert.Equal(t, st, back)

	st, msgs = c.Decode("?lesson=dma")
	require.Empty(t, msgs)
	assert.Equal(t, 1, st.Stop, "a lesson without stop opens its first")

	for _, tc := range []struct {
		query, key, text string
		lesson           string
		stop             int
	}{
		{"lesson=chem&stop=2", "lesson", `lesson: "chem" is not allowed; allowed dma; showing no lesson`, "", 0},
		{"lesson=dma&stop=9", "stop", `stop: "9" is not allowed; allowed 1..5; using 1`, "dma", 1},
		{"lesson=dma&stop=two", "stop", `stop: "two" is not allowed; allowed 1..5; using 1`, "dma", 1},
		{"lesson=dma&stop=0", "stop", `stop: "0" is not allowed; allowed 1..5; using 1`, "dma", 1},
		{"stop=2", "stop", "stop: given without lesson; ignored", "", 0},
	} {
		st, msgs := c.Decode(tc.query)
		require.Len(t, msgs, 1, tc.query)
		assert.Equal(t, tc.key, msgs[0].Key, tc.query)
		assert.Equal(t, tc.text, msgs[0].Text, tc.query)
		assert.Equal(t, tc.lesson, st.Lesson, tc.query)
		assert.Equal(t, tc.stop, st.Stop, tc.query)
		if tc.lesson == "" {
			assert.NotContains(t, c.Encode(st), "stop=", "%s: a refused lesson is not written back", tc.query)
		} else {
			assert.Contains(t, c.Encode(st), "lesson=dma&stop=1", "%s: the fallback is written back", tc.query)
		}
	}
	_, msgs = (&Codec{Registry: catalog.Registry()}).Decode("lesson=dma")
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0].Text, "no lessons are registered")
}
