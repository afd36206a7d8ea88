//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dmaviz/dmaviz/site/app"
)

// exposeResultsData gives the page (and the browser tests) the live runs'
// results as the site builder writes them beside a pre-rendered first view
// (app.ResultsData): dmaviz.resultsData() returns the JSON text, or null
// before the first results.
func exposeResultsData(page js.Value, a *app.App) {
	if !page.Truthy() {
		return
	}
	page.Set("resultsData", js.FuncOf(func(js.Value, []js.Value) any {
		if b, ok := a.ResultsData(); ok {
			return string(b)
		}
		return nil
	}))
}
