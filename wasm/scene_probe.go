//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"github.com/dmaviz/dmaviz/render"
)

// exposeScene sets dmaviz.sceneSummary(): of the last frame the stage
// drew, the smallest text (its size in CSS pixels, id and words), how
// many items of each id it holds, the texts cut with an ellipsis ("id:
// words"), the top of the narration (the highest caption or narration
// line, -1 for none) and of the highest text, so that the browser tests read the scene the page
// drew (its text sizes, its ring dials, grids and mapping lines, whether
// its narration is whole) rather than guess from pixels.
func (s *stage) exposeScene() {
	fn := js.FuncOf(func(js.Value, []js.Value) any {
		counts := map[string]any{}
		least, leastID, leastText := float32(0), "", ""
		cut := []any{}
		narrTop, textTop := float32(-1), float32(-1)
		for i := range s.scene.Items {
			it := &s.scene.Items[i]
			n, _ := counts[it.ID].(int)
			counts[it.ID] = n + 1
			if it.Kind != render.KindText || it.Text == "" {
				continue
			}
			if leastID == "" || it.Size < least {
				least, leastID, leastText = it.Size, it.ID, it.Text
			}
			if top := it.Y - it.Size; textTop < 0 || top < textTop {
				textTop = top
			}
			if strings.HasSuffix(it.Text, "…") {
				cut = append(cut, it.ID+": "+it.Text)
			}
			if strings.HasSuffix(it.ID, "/narration") || strings.HasSuffix(it.ID, "/caption") {
				if top := it.Y - it.Size; narrTop < 0 || top < narrTop {
					narrTop = top
				}
			}
		}
		return map[string]any{"leastText": float64(least), "leastID": leastID, "leastWords": leastText, "ids": counts,
			"cut": cut, "narrationTop": float64(narrTop), "textTop": float64(textTop)}
	})
	s.page.Set("sceneSummary", fn)
	// dmaviz.sceneTexts(prefix): the words of the last frame's text items
	// whose id starts with prefix, in drawing order (what the stage says,
	// for the tests of what it keeps back).
	s.page.Set("sceneTexts", js.FuncOf(func(_ js.Value, args []js.Value) any {
		prefix := ""
		if len(args) == 1 && args[0].Type() == js.TypeString {
			prefix = args[0].String()
		}
		out := []any{}
		for i := range s.scene.Items {
			it := &s.scene.Items[i]
			if it.Kind == render.KindText && it.Text != "" && strings.HasPrefix(it.ID, prefix) {
				out = append(out, it.Text)
			}
		}
		return out
	}))
}
