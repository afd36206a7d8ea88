package timeline

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriterNames(t *testing.T) {
	r := NewRecorder()
	etr := r.Writer("etr")
	nic := r.Writer("nic")
	{
		again := r.Writer("etr")
		require.Equal(t, etr, again, "second Writer(etr) = %d, want %d", again, etr)
	}
	tl := r.Finish(0)
	for _, c := range []struct {
		id   uint8
		want string
	}{{WriterNobody, "nobody"}, {WriterCPU, "cpu"}, {etr, "etr"}, {nic, "nic"}, {9, "writer 9"}} {
		{
			got := tl.WriterName(c.id)
			assert.Equal(t, c.want, got, "WriterName(%d) = %q, want %q", c.id, got, c.want)
		}
	}
}
