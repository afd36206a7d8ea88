package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParamParse(t *testing.T) {
	p := Param{Name: "buffer", Kind: KindBytes, Min: 64 << 10, Max: 64 << 20}
	{
		v, err := p.Parse("4MiB")
		require.NoError(t, err, "Parse(4MiB) = %+v, %v", v, err)
		require.EqualValues(t, 4<<20, v.Num, "Parse(4MiB) = %+v, %v", v, err)
		require.EqualValues(t, "4MiB", v.Text, "Parse(4MiB) = %+v, %v", v, err)
	}
	for _, bad := range []string{"1KiB", "65MiB", "x", "NaN", "1.5"} {
		_, err := p.Parse(bad)
		require.Error(t, err, "Parse(%q) accepted", bad)
		{
			msg := err.Error()
			assert.Contains(t, msg, "buffer", "Parse(%q) error %q does not name the field and range", bad, msg)
			assert.Contains(t, msg, "64KiB..64MiB", "Parse(%q) error %q does not name the field and range", bad, msg)
		}
	}
}
