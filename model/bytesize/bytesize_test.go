package bytesize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSizesAreBinaryWhateverTheSpelling(t *testing.T) {
	for text, want := range map[string]float64{"2mb": 2 << 20, "2MB": 2 << 20, "2MiB": 2 << 20, "2m": 2 << 20, "64kb": 64 << 10, "1GB": 1 << 30, "512": 512} {
		got, err := Parse(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, got, text)
	}
}
