package urlstate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
)

// TestUnknownKeysMakeOneMessage: 1,400 unknown keys are one message that
// counts them and names the first three.
func TestUnknownKeysMakeOneMessage(t *testing.T) {
	var q strings.Builder
	q.WriteString("scenario=demo")
	for i := range 1400 {
		fmt.Fprintf(&q, "&k%04d=1", i)
	}
	_, msgs := (&Codec{Registry: catalog.Registry()}).Decode(q.String())
	require.Len(t, msgs, 1, "messages for 1,400 unknown keys")
	assert.True(t, strings.HasPrefix(msgs[0].Text, "1,400 unknown keys for scenario demo: k0000, k0001, k0002, …; parameters are "), msgs[0].Text)
	assert.Less(t, len(msgs[0].Text), 300, "the message is long")

	_, msgs = (&Codec{Registry: catalog.Registry()}).Decode("scenario=demo&colour=red")
	require.Len(t, msgs, 1)
	assert.True(t, strings.HasPrefix(msgs[0].Text, "colour: unknown key for scenario demo; parameters are "), msgs[0].Text)
}

// TestEchoedValuesAreCut: a 100 KB value (or key) is repeated as its first
// 64 characters and its length.
func TestEchoedValuesAreCut(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	codec := &Codec{Registry: catalog.Registry()}
	for _, q := range []string{"scenario=demo&buffer=" + long, "scenario=" + long, "scenario=demo&a=" + long, "scenario=demo&t=" + long, "scenario=demo&" + long + "=1"} {
		_, msgs := codec.Decode(q)
		require.Len(t, msgs, 1, q[:20])
		m := msgs[0].Text
		assert.Contains(t, m, `"`+strings.Repeat("x", 64)+`"… (100000 characters)`, q[:20])
		assert.NotContains(t, m, strings.Repeat("x", 65), q[:20])
		assert.Less(t, len(m), 400, "%s: a message of %d bytes", q[:20], len(m))
	}
}

// TestMessagesAreCapped: a link with more bad values than maxMessages gets
// maxMessages messages, the last counting the rest.
func TestMessagesAreCapped(t *testing.T) {
	q := "scenario=demo&a=x&b=y&t=z&speed=99&panel=p&embed=e&zoom=q&align=w&preset=v&buffer=u"
	_, msgs := (&Codec{Registry: catalog.Registry()}).Decode(q)
	require.Len(t, msgs, maxMessages)
	assert.Equal(t, "and 3 more problems in the link", msgs[maxMessages-1].Text)
	assert.Equal(t, "1,400", count(1400))
	assert.Equal(t, "1,000,000", count(1_000_000))
	assert.Equal(t, "999", count(999))
}
