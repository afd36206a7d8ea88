package etr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The pointer rules at every edge of the circular buffer: every session
// starts at the base, the ring wraps only when full, and when full the
// oldest byte is at RWP.
func TestPointersAtEveryEdge(t *testing.T) {
	const size = 64 << 10
	for _, tc := range []struct {
		name    string
		written uint64
		want    Pointers
		window  Window
		wraps   bool
		chunks  []Range
		over    uint64
	}{
		{"empty", 0, Pointers{}, Window{0, 0}, false, nil, 0},
		{"one frame", 16, Pointers{RWP: 16}, Window{0, 16}, false, []Range{{0, 16}}, 0},
		{"half", size / 2, Pointers{RWP: size / 2}, Window{0, size / 2}, false, []Range{{0, size / 2}}, 0},
		{"one byte short of full", size - 1, Pointers{RWP: size - 1}, Window{0, size - 1}, false, []Range{{0, size - 1}}, 0},
		{"exactly full", size, Pointers{RRP: 0, RWP: 0, Full: true}, Window{0, size}, false, []Range{{0, size}}, 0},
		{"one byte past full", size + 1, Pointers{RRP: 1, RWP: 1, Full: true}, Window{1, size}, true, []Range{{1, size - 1}, {0, 1}}, 1},
		{"one and a half laps", size + size/2, Pointers{RRP: size / 2, RWP: size / 2, Full: true}, Window{size / 2, size}, true,
			[]Range{{size / 2, size / 2}, {0, size / 2}}, size / 2},
		{"exactly two laps", 2 * size, Pointers{Full: true}, Window{0, size}, false, []Range{{0, size}}, size},
		{"several laps", 3*size + 4096, Pointers{RRP: 4096, RWP: 4096, Full: true}, Window{4096, size}, true,
			[]Range{{4096, size - 4096}, {0, 4096}}, 2*size + 4096},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := AfterWriting(size, tc.written)
			require.Equal(t, tc.want, p, "pointers %+v, want %+v", p, tc.want)
			require.False(t, p.Full && p.RRP != p.RWP, "invariant broken: %+v", p)
			require.False(t, !p.Full && p.RRP != 0, "invariant broken: %+v", p)
			w := p.Window(size)
			require.Equal(t, tc.window, w, "window %+v wraps %v, want %+v wraps %v", w, w.Wraps(size), tc.window, tc.wraps)
			require.Equal(t, tc.wraps, w.Wraps(size), "window %+v wraps %v, want %+v wraps %v", w, w.Wraps(size), tc.window, tc.wraps)
			require.False(t, w.Wraps(size) && !p.Full, "a wrap without FULL: sessions start at the base")
			{
				got := w.Chunks(size)
				require.Equal(t, tc.chunks, got, "chunks %+v, want %+v", got, tc.chunks)
			}
			var total uint64
			for _, c := range w.Chunks(size) {
				total += c.Len
				require.LessOrEqual(t, c.End(), uint64(size), "chunk %+v runs past the buffer", c)
			}
			require.EqualValues(t, w.Len, total, "chunks cover %d bytes, window %d", total, w.Len)
			{
				got := Overwritten(size, tc.written)
				require.Equal(t, tc.over, got, "overwritten %d, want %d", got, tc.over)
			}
		})
	}
}

// The AUX space rule of tmc_update_etr_buffer: keep only the newest bytes,
// frame aligned, offset moved forward modulo the buffer, marked truncated.
func TestKeepTruncatesToNewestBytes(t *testing.T) {
	const size = 64 << 10
	for _, tc := range []struct {
		name  string
		w     Window
		space uint64
		want  Take
	}{
		{"fits", Window{0, 1000}, 4096, Take{Window: Window{0, 1000}}},
		{"exactly fits", Window{100, size}, size, Take{Window: Window{100, size}}},
		{"no wrap, newest kept", Window{0, 40000}, 8192, Take{Window{40000 - 8192, 8192}, true, 40000 - 8192}},
		{"wrapped data, kept part in the head", Window{size / 2, size}, 4096, Take{Window{size/2 - 4096, 4096}, true, size - 4096}},
		{"wrapped data, kept part wraps", Window{size / 2, size}, size/2 + 4096, Take{Window{size - 4096, size/2 + 4096}, true, size/2 - 4096}},
		{"space not frame aligned", Window{0, 1000}, 100, Take{Window{1000 - 96, 96}, true, 1000 - 96}},
		{"no space", Window{0, 1000}, 0, Take{Window{1000, 0}, true, 1000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Keep(tc.w, size, tc.space)
			require.Equal(t, tc.want, got, "Keep = %+v, want %+v", got, tc.want)
			require.False(t, got.Len > tc.space, "Keep broke an invariant: %+v", got)
			require.False(t, got.Offset >= size, "Keep broke an invariant: %+v", got)
			require.EqualValues(t, tc.w.Len, got.Len+got.Dropped, "Keep broke an invariant: %+v", got)
			// The kept bytes are the newest: they end where the data ends.
			require.Equal(t, (tc.w.Offset+tc.w.Len)%size, (got.Offset+got.Len)%size, "kept data ends at %d, data ends at %d", (got.Offset+got.Len)%size, (tc.w.Offset+tc.w.Len)%size)
		})
	}
}

func TestAUXSpace(t *testing.T) {
	a := AUX{Size: 8192, Head: 10000, Tail: 9000}
	require.EqualValues(t, 7192, a.Space(), "space %d", a.Space())
}

// tmc_etr_sync_perf_buffer's loop: pieces never cross the end of the ETR
// buffer or an AUX page, the AUX position wraps, and the pieces cover the
// data in order.
func TestPiecesPageByPage(t *testing.T) {
	const bufSize, auxSize = 16 << 10, 8 << 10
	take := Take{Window: Window{Offset: bufSize - 5000, Len: 7000}}
	var got []Piece
	require.NoError(t, Pieces(take, bufSize, auxSize, 3*auxSize+6000, func(p Piece) error {
		got = append(got, p)
		return nil
	}))
	want := []Piece{
		{Src: bufSize - 5000, Dst: 6000, Len: 2192},                   // to the end of AUX page 1
		{Src: bufSize - 2808, Dst: 0, Len: 2808},                      // AUX wrapped; to the end of the ETR buffer
		{Src: 0, Dst: 2808, Len: 4096 - 2808},                         // ETR wrapped; to the end of AUX page 0
		{Src: 4096 - 2808, Dst: 4096, Len: 7000 - 2192 - 2808 - 1288}, // the rest
	}
	require.Equal(t, want, got, "pieces\n%+v\nwant\n%+v", got, want)
}
