package scenario

import "testing"

func TestWriterNames(t *testing.T) {
	r := NewRecorder()
	etr := r.Writer("etr")
	nic := r.Writer("nic")
	if again := r.Writer("etr"); again != etr {
		t.Fatalf("second Writer(etr) = %d, want %d", again, etr)
	}
	tl := r.Finish(0)
	for _, c := range []struct {
		id   uint8
		want string
	}{{WriterNobody, "nobody"}, {WriterCPU, "cpu"}, {etr, "etr"}, {nic, "nic"}, {9, "writer 9"}} {
		if got := tl.WriterName(c.id); got != c.want {
			t.Errorf("WriterName(%d) = %q, want %q", c.id, got, c.want)
		}
	}
}
