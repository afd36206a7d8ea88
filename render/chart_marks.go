package render

// chartMarks is how many series have a marker of their own: a series'
// marker differs from every other's of the first chartMarks and from a
// published figure's open square (published), so B's points never read
// as published figures.
const chartMarks = 8

// chartMarker draws series si's marker at (x, y), about 9 px across: a
// filled square, an x, an upright bar, a plus, a triangle, a diamond, an
// asterisk and a flat bar, in that order (the first four, which most
// charts use, in one or two items each, so the panel's figures stay
// small).
func chartMarker(s *Scene, id string, index int32, si int, x, y float32, col Color) {
	const r, lw = 4.5, 1.8
	line := func(x0, y0, x1, y1 float32) {
		s.Add(Item{Kind: KindLine, ID: id, Index: index, X: x + x0, Y: y + y0, X2: x + x1, Y2: y + y1, Fill: None, Stroke: col, StrokeWidth: lw})
	}
	switch si % chartMarks {
	case 0:
		s.Rect(id, index, x-3, y-3, 6, 6, col, Ref{})
	case 1:
		line(-r, -r, r, r)
		line(-r, r, r, -r)
	case 2:
		s.Rect(id, index, x-1.5, y-r, 3, 2*r, col, Ref{})
	case 3:
		line(-r, 0, r, 0)
		line(0, -r, 0, r)
	case 4:
		line(0, -r, r, r)
		line(r, r, -r, r)
		line(-r, r, 0, -r)
	case 5:
		line(0, -r, r, 0)
		line(r, 0, 0, r)
		line(0, r, -r, 0)
		line(-r, 0, 0, -r)
	case 6:
		line(-r, -r, r, r)
		line(-r, r, r, -r)
		line(-r, 0, r, 0)
		line(0, -r, 0, r)
	default:
		s.Rect(id, index, x-r, y-1.5, 2*r, 3, col, Ref{})
	}
}
