package svg

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// escape must write what encoding/xml's EscapeText writes for the text the
// stage carries (labels, narration, addresses, units).
func TestEscapeMatchesEncodingXML(t *testing.T) {
	for _, s := range []string{
		"", "plain", "a < b && c > d", `"quoted" and 'single'`, "tab\there\nnew line\r",
		"0x8000_0000..0x8040_0000 (4 KiB)", "µs → ×3.31", "dma_sync_single_for_cpu(&buf)",
	} {
		var sb strings.Builder
		require.NoError(t, xml.EscapeText(&sb, []byte(s)))
		require.Equal(t, sb.String(), escape(s), "escape(%q)", s)
	}
}
