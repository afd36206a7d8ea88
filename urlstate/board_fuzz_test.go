package urlstate

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// FuzzBoardJSONURL: a board file that builds a board gives hw.* keys
// that a link carries without a message and that build the same board;
// the link re-encodes to itself, and the board written back as JSON
// reads back to the same board.
func FuzzBoardJSONURL(f *testing.F) {
	for _, name := range platform.Names() {
		data, err := os.ReadFile(filepath.Join("..", "model", "platform", "testdata", "board-"+name+".json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		`{"base": "juno-r2", "l2": {"size": "2MiB", "ways": 8, "latency": 20.5}, "clocks": {"cpu": "1.1GHz"}, "dram": {"latency": "95.125ns"}}`,
		`{"base": "ls2088a", "clocks": {"platform": "700MHz"}, "smmu": {"tbu": {"tlb_entries": 256}, "tcu": {"walk": {"l0": {"entries": 4}}}}}`,
		`{"base": "neoverse-n1", "l3": {"size": "8MiB"}, "tlb": {"l2": {"sizes": "4K|2M"}, "linear": "4K|2M"}, "maint": {"ivac_cleans": false}}`,
		`{"base": "juno-r2", "l3": {"size": "4MiB", "ways": 16, "line_bytes": 64, "latency": 40}, "prefetch": {"streams": 0}}`,
		`{"base": "dimensity-9500", "dram": {"bandwidth": "12.8GB/s"}, "l1d": {"policy": "plru"}, "nc": {"latency": "0.5us"}}`,
	} {
		f.Add([]byte(s))
	}
	c := &Codec{Registry: catalog.Registry()}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := platform.ReadBoard(data)
		if err != nil {
			return
		}
		want, err := file.Build()
		if err != nil {
			return
		}
		over, err := file.Overrides()
		if err != nil {
			t.Fatalf("a board that builds has no overrides: %v", err)
		}
		q := url.Values{"scenario": {"etr"}, "preset": {file.Base}}
		for path, v := range over {
			q.Set(scenario.HardwarePrefix+path, platform.FormatText(path, v))
		}
		st, msgs := c.DecodeValues(q)
		if len(msgs) > 0 {
			t.Fatalf("link %s: %v", q.Encode(), msgs)
		}
		got, err := platform.BoardWith(file.Base, st.Params.Hardware())
		if err != nil {
			t.Fatal(err)
		}
		if a, b := fieldsText(want), fieldsText(got); a != b {
			t.Fatalf("the link builds another board:\nfile %s\nlink %s", a, b)
		}
		link := c.Encode(st)
		again, msgs := c.Decode(link)
		if len(msgs) > 0 || c.Encode(again) != link {
			t.Fatalf("link %s is not stable: %v %s", link, msgs, c.Encode(again))
		}
		back, err := platform.ReadBoard(platform.MarshalBoard(file.Base, &got))
		if err != nil {
			t.Fatal(err)
		}
		rebuilt, err := back.Build()
		if err != nil {
			t.Fatal(err)
		}
		if a, b := fieldsText(want), fieldsText(rebuilt); a != b {
			t.Fatalf("the board's JSON builds another board:\n%s\n%s", a, b)
		}
	})
}

func fieldsText(b platform.Board) string {
	var s strings.Builder
	for _, f := range b.Fields() {
		s.WriteString(f.Path + "=" + f.Text + " ")
	}
	return s.String()
}
