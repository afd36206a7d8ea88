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

// A fraction of a byte comes back as it is, for the caller to refuse: it
// was once rounded, so that 1.5B ran as 2B.
func TestAFractionOfAByteIsNotRounded(t *testing.T) {
	for text, want := range map[string]float64{"1.5B": 1.5, "1.5": 1.5, "0.1KiB": 102.4, "1.5KiB": 1536} {
		got, err := Parse(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, got, text)
	}
}
