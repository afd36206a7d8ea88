//go:build js && wasm

package main

import (
	"image/color"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/dmaviz/dmaviz/site/control"
)

var palette = map[string]color.RGBA{
	"blue":   {0x00, 0x72, 0xb2, 0xff},
	"orange": {0xe6, 0x9f, 0x00, 0xff},
	"green":  {0x00, 0x9e, 0x73, 0xff},
	"pink":   {0xcc, 0x79, 0xa7, 0xff},
}

// stage is the Ebiten game: Update drains the controller's queue, Draw
// paints the current state, and it publishes what it shows.
type stage struct {
	ctl    *control.Controller
	page   js.Value
	cmds   []control.Command
	cells  int64
	colour string
	w, h   int
	dirty  bool
	pub    control.Published
	panelW int
}

func runStage(ctl *control.Controller, page js.Value) {
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetScreenClearedEveryFrame(false)
	s := &stage{ctl: ctl, page: page, cells: 256, colour: "blue", dirty: true}
	if err := ebiten.RunGame(s); err != nil {
		fail(page, "the stage stopped: "+err.Error())
	}
}

func (s *stage) Update() error {
	s.pub.Updates++
	if pw := s.ctl.PanelWidth(); pw != s.panelW {
		s.panelW, s.dirty = pw, true
	}
	s.cmds = s.ctl.Drain(s.cmds)
	for _, c := range s.cmds {
		switch c.Kind {
		case control.CmdSetGridCells:
			s.cells = c.Int
		case control.CmdSetGridColour:
			if _, ok := palette[c.Text]; ok {
				s.colour = c.Text
			}
		}
		s.dirty = true
	}
	return nil
}

func (s *stage) Draw(screen *ebiten.Image) {
	if !s.dirty {
		return
	}
	s.dirty = false
	screen.Fill(color.RGBA{0x14, 0x16, 0x1c, 0xff})
	x0 := float32(s.panelW)
	w, h := float32(s.w)-x0, float32(s.h)
	if w > 0 && h > 0 && s.cells > 0 {
		cols := int64(1)
		for cols*cols < s.cells {
			cols++
		}
		rows := (s.cells + cols - 1) / cols
		cw, ch := (w-32)/float32(cols), (h-32)/float32(rows)
		c := palette[s.colour]
		for i := int64(0); i < s.cells; i++ {
			x := x0 + 16 + float32(i%cols)*cw
			y := 16 + float32(i/cols)*ch
			vector.DrawFilledRect(screen, x+1, y+1, max(cw-2, 1), max(ch-2, 1), c, false)
		}
	}
	s.pub.Frames++
	s.pub.Cells, s.pub.Colour, s.pub.StageWidth, s.pub.StageHeight = s.cells, s.colour, s.w, s.h
	s.ctl.Publish(s.pub)
	if s.pub.Frames == 1 {
		s.page.Call("stageReady")
	}
	s.page.Set("frames", s.pub.Frames)
}

func (s *stage) Layout(outsideWidth, outsideHeight int) (int, int) {
	if outsideWidth != s.w || outsideHeight != s.h {
		s.w, s.h, s.dirty = outsideWidth, outsideHeight, true
	}
	return outsideWidth, outsideHeight
}
