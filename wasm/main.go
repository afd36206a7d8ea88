//go:build js && wasm

// Command wasm is dmaviz in the browser: the Vugu panel's render loop runs in
// main, the Ebiten stage in a goroutine, and the two share one controller.
package main

import (
	"log"
	"syscall/js"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"

	"github.com/dmaviz/dmaviz/site"
	"github.com/dmaviz/dmaviz/site/control"
)

func main() {
	ctl := &control.Controller{}
	page := js.Global().Get("dmaviz")

	renderer, err := domrender.New("#panel-root")
	if err != nil {
		fail(page, "the control panel could not start: "+err.Error())
		return
	}
	defer renderer.Release()
	buildEnv, err := vugu.NewBuildEnv(renderer.EventEnv())
	if err != nil {
		fail(page, "the control panel could not start: "+err.Error())
		return
	}
	env := renderer.EventEnv()
	ctl.OnPublish(func() {
		env.Lock()
		env.UnlockRender()
	})
	if page.Truthy() {
		page.Set("setPanelWidth", js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) == 1 && args[0].Type() == js.TypeNumber {
				ctl.SetPanelWidth(args[0].Int())
			}
			return nil
		}))
		if w := page.Get("panelWidth"); w.Type() == js.TypeNumber {
			ctl.SetPanelWidth(w.Int())
		}
	}
	root := &site.Root{Ctl: ctl, CellsText: "256", Colour: "blue"}

	if page.Truthy() && page.Get("webgl2").Truthy() {
		go runStage(ctl, page)
	} else {
		log.Print("dmaviz: WebGL2 is not available; the stage is off, the panel still works")
	}

	first := true
	for ok := true; ok; ok = renderer.EventWait() {
		if err := renderer.Render(buildEnv.RunBuild(root)); err != nil {
			fail(page, "the control panel failed to render: "+err.Error())
			return
		}
		if first && page.Truthy() {
			first = false
			page.Call("panelReady")
		}
	}
}

func fail(page js.Value, msg string) {
	log.Print("dmaviz: ", msg)
	if page.Truthy() {
		page.Call("showError", msg)
	}
}
