package site

import (
	"strconv"

	"github.com/vugu/vugu"
	js "github.com/vugu/vugu/js"

	"github.com/dmaviz/dmaviz/site/app"
)

// Export offers the run's data beside the metrics table: the stage as a
// figure (SVG and PNG), the trace for Perfetto, the table as CSV on the
// clipboard, the JSON report.
type Export struct {
	App     *app.App
	Running bool // a run is computing (control.RunState)
	// Figure draws the stage at the cursor (nil: the page cannot).
	Figure  func() (*app.Figure, error)
	AttrMap vugu.AttrMap
	status  string
	lastURL string // the latest download's blob URL, freed on the next
}

func (c *Export) ready() bool {
	return c.App != nil && c.App.A != nil && c.App.B != nil && !c.Running
}

func (c *Export) downloadTrace() {
	text, ok := c.App.TraceJSON()
	c.save(text, ok, c.App.FileName("trace.json"), "trace")
}

func (c *Export) downloadJSON() {
	text, ok := c.App.ReportJSON()
	c.save(text, ok, c.App.FileName("json"), "JSON report")
}

func (c *Export) copyCSV() {
	text, ok := c.App.MetricsCSV()
	if !ok {
		c.status = "no results to copy yet"
		return
	}
	sh := Share{}
	sh.copy(text, "metrics table as CSV")
	c.status = sh.status
}

// exportFigure saves the stage at the cursor as SVG, and as PNG drawn
// from that SVG by the page (dmaviz.savePNG in the loader): the same
// picture as the SVG, at twice its size, with or without a WebGL stage.
func (c *Export) exportFigure() {
	if c.Figure == nil {
		c.status = "this page cannot draw figures"
		return
	}
	f, err := c.Figure()
	if err != nil {
		c.status = "no figure: " + err.Error()
		return
	}
	name := c.App.FigureName(f.At, "svg")
	text := string(f.SVG)
	if !c.saveAs(text, name, "image/svg+xml") {
		return
	}
	png := c.App.FigureName(f.At, "png")
	if page := js.Global().Get("dmaviz"); page.Truthy() && page.Get("savePNG").Truthy() {
		page.Call("savePNG", text, png, f.W, f.H, 2)
	} else {
		png = "no PNG: this page cannot draw one"
	}
	c.status = "saved the figure as " + name + " (" + sizeText(len(text)) + ") and " + png + "; the same SVG: " + f.Command(name)
}

// save offers text as a file download (a Blob URL on a temporary link).
func (c *Export) save(text string, ok bool, name, what string) {
	if !ok {
		c.status = "no results to save yet"
		return
	}
	if c.saveAs(text, name, "application/json") {
		c.status = "saved the " + what + " as " + name + " (" + sizeText(len(text)) + ")"
	}
}

// saveAs offers text as a download named name of MIME type typ; false
// (and a status saying why) when the browser cannot.
func (c *Export) saveAs(text, name, typ string) bool {
	g := js.Global()
	doc := g.Get("document")
	if !doc.Truthy() || !g.Get("Blob").Truthy() {
		c.status = "this browser cannot save files from the page"
		return false
	}
	blob := g.Get("Blob").New([]any{text}, map[string]any{"type": typ})
	// Strings only cross into JavaScript here: vugu's js.Value does not
	// convert back to a JavaScript value (syscall/js panics on it).
	url := g.Get("URL").Call("createObjectURL", blob).String()
	link := doc.Call("createElement", "a")
	link.Set("href", url)
	link.Set("download", name)
	doc.Get("body").Call("appendChild", link)
	link.Call("click")
	link.Call("remove")
	// The previous download has started by now: free its blob.
	if c.lastURL != "" {
		g.Get("URL").Call("revokeObjectURL", c.lastURL)
	}
	c.lastURL = url
	return true
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return strconv.Itoa(n>>20) + "." + strconv.Itoa((n%(1<<20))*10>>20) + " MB"
	case n >= 1<<10:
		return strconv.Itoa(n>>10) + " KB"
	}
	return strconv.Itoa(n) + " B"
}
