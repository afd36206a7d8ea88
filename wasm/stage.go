//go:build js && wasm

package main

import (
	"fmt"
	"math"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/dmaviz/dmaviz/play"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/render/paint"
	"github.com/dmaviz/dmaviz/site/control"
)

// stage is the Ebiten game. Update turns input into intent (commands to the
// controller, hover, zoom) and advances the player; Draw builds the scene
// from the player's states and paints it, and is skipped when nothing
// changed.
type stage struct {
	ctl     *control.Controller
	page    js.Value
	painter *paint.Painter
	views   *render.Stage
	scene   render.Scene
	frame   render.Frame

	w, h   int     // screen size in device pixels
	dpr    float64 // device pixels per CSS pixel
	panelW int
	dirty  bool
	broken bool // a view panicked; the stage stays as it was
	// firstFrame is called after the first frame (the first run waits
	// for it).
	firstFrame func()
	last       time.Time
	playing    bool // the player was playing at the end of the last Update
	frames     int64
	// drawTime is the Go time spent building and submitting frames (the
	// GPU's own work is not in it); the page shows it as dmaviz.drawMs.
	drawTime time.Duration

	pointer  pointerState
	hovering bool // the pointer is over the stage, at hoverAt
	hoverAt  [2]float32
	touches  []ebiten.TouchID
	masked   maskedRuns // the runs shown while a lesson keeps its answer back
}

// runStage runs the stage; firstFrame is called once its first frame is
// drawn.
func runStage(ctl *control.Controller, page js.Value, firstFrame func()) {
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetScreenClearedEveryFrame(false)
	// Frames on demand: Update and Draw run only for input, a resize, a
	// change the controller wakes the stage for, or the player playing
	// (Update asks for the next frame). In the default mode Ebiten calls
	// Update every animation frame and, after each drawn frame, presents
	// the unchanged picture three more times; in a browser that composites
	// in software (no GPU, a blocklisted GPU, headless Chromium) every
	// present is a readback of the whole canvas on the page's thread,
	// which delayed the first results and made every re-run's redraw a
	// long task.
	// SetScreenClearedEveryFrame(false), which Ebiten's deprecation note
	// offers instead, skips only the drawing, not those presents.
	ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum) //lint:ignore SA1019 see above
	s := &stage{ctl: ctl, page: page, painter: paint.New(), views: render.NewStage(), dirty: true, dpr: 1, firstFrame: firstFrame}
	ctl.SetWake(ebiten.ScheduleFrame) //lint:ignore SA1019 the on-demand mode's wake-up
	s.pointer.watchCanvas()
	s.exposeScene()
	if err := ebiten.RunGame(s); err != nil {
		fail(page, "the stage stopped: "+err.Error())
	}
}

func (s *stage) Update() error {
	now := time.Now()
	dt := time.Duration(0)
	// Wall time plays only between two frames of playing: a frame after a
	// pause (frames stop while nothing changes) must not jump the cursor.
	if s.playing && !s.last.IsZero() {
		dt = min(now.Sub(s.last), 250*time.Millisecond) // a hidden tab does not jump the cursor
	}
	s.last = now
	// While playing every frame is drawn, a hold at a narration step
	// included (the cursor does not move then), as before there were
	// holds: in Ebiten's on-demand mode, frames that drew nothing while
	// Update kept asking for the next one stopped Update for good in the
	// middle of a hold (headless Chromium; after such a frame Ebiten's
	// loop sleeps, the likely cause).
	if s.ctl.Advance(dt, true) || s.playing {
		s.dirty = true
	}
	if pw := s.ctl.PanelWidth(); pw != s.panelW {
		s.panelW, s.dirty = pw, true
	}
	s.input()
	if s.playing = s.ctl.Snapshot().Playing; s.playing {
		ebiten.ScheduleFrame() //lint:ignore SA1019 the on-demand mode's next frame
	}
	return nil
}

// input handles hover (mouse or touch), wheel zoom and the zoom reset key.
func (s *stage) input() {
	x, y, ok := s.pointerAt()
	// The hovered item is outlined and described beside the pointer in
	// Draw: a move over the stage is a change to draw.
	if ok != s.hovering || (ok && (x != s.hoverAt[0] || y != s.hoverAt[1])) {
		s.dirty = true
	}
	s.hovering, s.hoverAt = ok, [2]float32{x, y}
	if !ok {
		s.ctl.SetHover("")
	}
	if _, wy := ebiten.Wheel(); wy != 0 && ok {
		s.zoomAt(x, y, wy > 0)
	}
	if ebiten.IsKeyPressed(ebiten.Key0) && s.frame.Zoom != (render.Zoom{}) {
		s.ctl.Send(control.Command{Kind: control.CmdZoom})
	}
}

// pointerAt is the pointer (or first touch) in CSS pixels, if it is over
// the stage.
func (s *stage) pointerAt() (float32, float32, bool) {
	s.touches = ebiten.AppendTouchIDs(s.touches[:0])
	var px, py int
	switch {
	case len(s.touches) > 0:
		px, py = ebiten.TouchPosition(s.touches[0])
	case s.pointer.inside:
		px, py = ebiten.CursorPosition()
	default:
		return 0, 0, false
	}
	x, y := float32(float64(px)/s.dpr), float32(float64(py)/s.dpr)
	return x, y, x >= float32(s.panelW)
}

func (s *stage) zoomAt(x, y float32, in bool) {
	h, hit := s.scene.HitTest(x, y)
	// The page-mapping view's strips zoom their buffer's page grid.
	zoomable := h.Item.Ref.Kind == render.RefCells || (h.Item.Ref.Kind == render.RefMapping && h.Item.Ref.Obj >= 0)
	if !hit || !zoomable {
		return
	}
	n := s.gridCells(h.Item.Ref)
	if n <= 0 {
		return
	}
	c, z := int(h.Item.Ref.Index), s.frame.Zoom
	if in {
		z = z.In(c, n, 2)
	} else {
		z = z.Out(c, n, 2)
	}
	if z.Count >= n {
		z = render.Zoom{}
	}
	s.ctl.Send(control.Command{Kind: control.CmdZoom, Int: int64(z.First), Int2: int64(z.Count)})
}

func (s *stage) gridCells(r render.Ref) int {
	n := 0
	s.ctl.WithPlayer(func(p *play.Player, zoom render.Zoom) {
		res := p.Result(int(r.Side))
		if res != nil && res.Timeline != nil && r.Obj >= 0 && int(r.Obj) < len(res.Timeline.Grids) {
			n = res.Timeline.Grids[r.Obj].Cells
		}
	})
	return n
}

func (s *stage) Draw(screen *ebiten.Image) {
	if !s.dirty || s.broken {
		return
	}
	s.dirty = false
	start := time.Now()
	// A bug in a view must not end the program (and the panel with it):
	// stop drawing and say so.
	defer func() {
		if p := recover(); p != nil {
			s.broken = true
			fail(s.page, fmt.Sprintf("the stage stopped drawing after an internal error (%v); the panel and numbers still work", p))
		}
	}()
	msg, in := s.ctl.RunError(), s.ctl.Insets()
	masked, hide := s.ctl.Mask()
	card := s.ctl.Card()
	s.ctl.WithPlayer(func(p *play.Player, zoom render.Zoom) {
		f := &s.frame
		f.Masked = masked
		for side, sd := range [2]*render.Side{&f.A, &f.B} {
			sd.Result = s.masked.result(side, p.Result(side), hide)
			sd.State = p.State(side)
			sd.Time = p.SideTime(side)
			_, i, _ := p.Caption(side)
			sd.Step = i + 1
		}
		f.Cursor, f.Length = p.Cursor(), p.Length()
		f.Progress = p.Align() == play.AlignProgress
		f.Left = float32(s.panelW)
		f.W, f.H = float32(float64(s.w)/s.dpr), float32(float64(s.h)/s.dpr)
		f.Zoom = zoom
		f.Message = msg
		f.Top, f.Bottom, f.Narrate = float32(in.Top), float32(in.Bottom), in.Narrate
		f.Card = in.Narrate && card
		s.views.Build(&s.scene, f)
	})
	if s.hovering {
		s.ctl.SetHover(s.scene.Hover(s.hoverAt[0], s.hoverAt[1], s.frame.Left))
	}
	s.painter.Scale = float32(s.dpr)
	s.painter.Draw(screen, &s.scene)
	s.frames++
	s.drawTime += time.Since(start)
	s.page.Set("drawMs", float64(s.drawTime)/float64(time.Millisecond))
	if s.frames == 1 {
		// Where the first frame put the stage's left edge (CSS pixels),
		// for the browser tests: right of the panel, or 0 in the embed and
		// presentation modes.
		s.page.Set("firstFrameLeft", s.frame.Left)
		s.page.Call("stageReady")
		if s.firstFrame != nil {
			s.firstFrame()
		}
	}
	s.page.Set("frames", s.frames)
}

// Layout renders at device resolution: the scene is laid out in CSS pixels
// and the painter scales it by the device pixel ratio.
func (s *stage) Layout(outsideWidth, outsideHeight int) (int, int) {
	dpr := ebiten.Monitor().DeviceScaleFactor()
	if dpr <= 0 || math.IsNaN(dpr) {
		dpr = 1
	}
	w, h := int(math.Ceil(float64(outsideWidth)*dpr)), int(math.Ceil(float64(outsideHeight)*dpr))
	if w != s.w || h != s.h || dpr != s.dpr {
		s.w, s.h, s.dpr, s.dirty = w, h, dpr, true
	}
	return w, h
}

// pointerState tracks whether the pointer is over the canvas: while it is
// over the panel, Ebiten keeps reporting the last canvas position, so hover
// would stick. A pointer captured on pointerdown keeps a drag that ends over
// the panel from leaving a button pressed.
type pointerState struct {
	inside bool
	funcs  []js.Func
}

func (ps *pointerState) watchCanvas() {
	canvas := js.Global().Get("document").Call("querySelector", "canvas")
	if !canvas.Truthy() {
		ps.inside = true
		return
	}
	on := func(name string, f func(ev js.Value)) {
		fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) == 1 {
				f(args[0])
			}
			return nil
		})
		ps.funcs = append(ps.funcs, fn)
		canvas.Call("addEventListener", name, fn)
	}
	on("pointerenter", func(js.Value) { ps.inside = true })
	on("pointerleave", func(js.Value) {
		ps.inside = false
		ebiten.ScheduleFrame() //lint:ignore SA1019 clear the hover outline
	})
	on("pointerdown", func(ev js.Value) {
		if id := ev.Get("pointerId"); id.Type() == js.TypeNumber {
			canvas.Call("setPointerCapture", id)
		}
	})
	// Ebiten's own keydown handler on the canvas cancels Tab, trapping the
	// keyboard user on the stage: answer Tab first (capture listeners run
	// before it) and keep it from Ebiten, so focus moves on to the panel.
	tab := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 1 && args[0].Get("key").String() == "Tab" {
			args[0].Call("stopImmediatePropagation")
		}
		return nil
	})
	ps.funcs = append(ps.funcs, tab)
	canvas.Call("addEventListener", "keydown", tab, true)
}
