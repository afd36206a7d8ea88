package timeline

import "strconv"

// Writer ids every scenario shares; devices get ids from Recorder.Writer.
const (
	WriterNobody uint8 = 0
	WriterCPU    uint8 = 1
)

// Writer declares a named writer (a device such as "etr") and returns its id
// for Cells. Declaring the same name twice returns the same id.
func (r *Recorder) Writer(name string) uint8 {
	for i, n := range r.tl.Writers {
		if n == name {
			return uint8(i + 2)
		}
	}
	if len(r.tl.Writers) >= 253 {
		return 255
	}
	r.tl.Writers = append(r.tl.Writers, name)
	return uint8(len(r.tl.Writers) + 1)
}

// WriterName returns the name of writer id w: "nobody", "cpu", a declared
// device name, or "writer N" for an undeclared id.
func (tl *Timeline) WriterName(w uint8) string {
	switch {
	case w == WriterNobody:
		return "nobody"
	case w == WriterCPU:
		return "cpu"
	case int(w)-2 < len(tl.Writers):
		return tl.Writers[w-2]
	}
	return "writer " + strconv.Itoa(int(w))
}
