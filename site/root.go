// Package site holds the Vugu components of the control panel. Go code lives
// in the .go files; the .vugu files hold markup only and are compiled by the
// pinned vugugen (see the Makefile).
package site

import (
	"fmt"
	"strconv"

	"github.com/dmaviz/dmaviz/site/control"
)

var colours = []string{"blue", "orange", "green", "pink"}

// Root is the panel. It talks to the stage only through Ctl.
type Root struct {
	Ctl       *control.Controller `vugu:"data"`
	CellsText string              `vugu:"data"`
	CellsErr  string              `vugu:"data"`
	Colour    string              `vugu:"data"`
}

// SetCells validates the cell count typed in the panel and sends it on.
func (c *Root) SetCells(text string) {
	c.CellsText = text
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > 4096 {
		c.CellsErr = fmt.Sprintf("cells: %q is not allowed; allowed 1..4096", text)
		return
	}
	c.CellsErr = ""
	c.Ctl.Send(control.Command{Kind: control.CmdSetGridCells, Int: int64(n)})
}

// SetColour sends the chosen colour on.
func (c *Root) SetColour(v string) {
	c.Colour = v
	c.Ctl.Send(control.Command{Kind: control.CmdSetGridColour, Text: v})
}

// Status describes what the stage last published.
func (c *Root) Status() string {
	p := c.Ctl.Published()
	if p.StageWidth == 0 {
		return "stage: starting"
	}
	return fmt.Sprintf("stage: %d cells, %s, %dx%d", p.Cells, p.Colour, p.StageWidth, p.StageHeight)
}
