package app

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/render/figure"
	"github.com/dmaviz/dmaviz/site/control"
	"github.com/dmaviz/dmaviz/urlstate"
)

// Figure is the stage at the cursor as a standalone SVG: the document
// `dmaviz export --url Query --at At --size WxH` writes, byte for byte.
type Figure struct {
	SVG   []byte
	Query string // the page's link query the figure is of
	At    string // the cursor, as --at takes it
	W, H  int    // CSS pixels
}

// Command is the CLI command that writes the same figure to file.
func (f *Figure) Command(file string) string {
	return fmt.Sprintf("dmaviz export --url '%s' --at %s --size %dx%d --svg %s", f.Query, f.At, f.W, f.H, file)
}

// ErrNoResults is a figure asked for before both sides have results.
var ErrNoResults = errors.New("no results to draw yet")

// Figure draws the stage at snap's cursor, w x h CSS pixels, from the
// state a reader of the page's link gets (decoded from the link, as the
// CLI decodes its --url), so the figure is the CLI's for that link.
func (a *App) Figure(snap control.Snapshot, w, h int) (*Figure, error) {
	if a.A == nil || a.B == nil || a.Spec == nil {
		return nil, ErrNoResults
	}
	f := &Figure{Query: a.LinkQuery(snap), W: w, H: h}
	st, msgs := a.Codec.Decode(f.Query)
	if len(msgs) > 0 {
		return nil, errors.New(msgs[0].Text)
	}
	f.At = urlstate.FormatTime(st.Cursor)
	var doc bytes.Buffer
	_, err := figure.Write(&doc, a.Spec, a.A, a.B, st, figure.Options{W: w, H: h})
	var past *figure.PastEndError
	if errors.As(err, &past) { // the link's time rounded past the end: the end
		f.At = "end"
		doc.Reset()
		_, err = figure.Write(&doc, a.Spec, a.A, a.B, st, figure.Options{End: true, W: w, H: h})
	}
	if err != nil {
		return nil, err
	}
	f.SVG = doc.Bytes()
	return f, nil
}

// FigureName is the figure's file name at cursor at ("end" or a time).
func (a *App) FigureName(at, ext string) string {
	name := a.FileName(ext)
	return strings.TrimSuffix(name, "."+ext) + "-at-" + at + "." + ext
}
