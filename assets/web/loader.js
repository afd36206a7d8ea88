// dmaviz page loader: checks WebAssembly and WebGL2, downloads main.wasm with
// a progress bar, starts the Go program and gives it a small page API
// (window.dmaviz) for readiness, errors and the panel's width.
"use strict";
(function () {
  const page = {
    webgl2: false,
    panelReadyAt: 0,
    stageReadyAt: 0,
    resultsReadyAt: 0,
    wasmReadyAt: 0, // main.wasm downloaded and compiled
    frames: 0,
    errors: [],
    panelReady() { page.panelReadyAt = performance.now(); document.body.classList.add("panel-ready"); dropLoading(); },
    stageReady() { page.stageReadyAt = performance.now(); document.body.classList.add("stage-ready"); dropLoading(); },
    loadingRemovedAt: 0,
    resultsReady() { page.resultsReadyAt = performance.now(); },
    showError(msg) { page.errors.push(msg); notice(msg); },
    setPanelWidth: null, // set by the Go program
    // savePNG draws an SVG document (w x h CSS pixels) at scale on a
    // canvas and offers it as a PNG download named name (Export figure):
    // the same picture as the SVG, whether or not the stage has WebGL2.
    savePNG(svgText, name, w, h, scale) {
      const src = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
      const img = new Image();
      img.onload = () => {
        const c = document.createElement("canvas");
        c.width = Math.round(w * scale);
        c.height = Math.round(h * scale);
        c.getContext("2d").drawImage(img, 0, 0, c.width, c.height);
        URL.revokeObjectURL(src);
        c.toBlob((png) => {
          if (!png) { page.showError("Export figure: the browser could not draw the PNG."); return; }
          const a = document.createElement("a");
          a.href = URL.createObjectURL(png);
          a.download = name;
          document.body.appendChild(a);
          a.click();
          a.remove();
          setTimeout(() => URL.revokeObjectURL(a.href), 10000);
        }, "image/png");
      };
      img.onerror = () => { URL.revokeObjectURL(src); page.showError("Export figure: the browser could not read the SVG to draw the PNG."); };
      img.src = src;
    },
  };
  window.dmaviz = page;

  function notice(msg) {
    const n = document.getElementById("notice");
    const p = document.createElement("p");
    p.textContent = msg;
    n.appendChild(p);
    n.hidden = false;
  }

  function hasWebGL2() {
    try {
      const c = document.createElement("canvas");
      return !!c.getContext("webgl2");
    } catch (e) {
      return false;
    }
  }

  // Vugu's renderer installs its helper script with eval; the same script is
  // already loaded from vugu-helper.js, so the page can forbid eval in its
  // Content-Security-Policy. Only that one call is answered.
  const realEval = window.eval;
  window.eval = function (src) {
    if (typeof src === "string" && src.startsWith("(function(){if(window.vuguRender)return;") && window.vuguRender) {
      return undefined;
    }
    return realEval(src);
  };

  const loading = document.getElementById("loading");
  const bar = document.getElementById("loading-bar");
  const text = document.getElementById("loading-text");
  const total = parseInt(document.body.dataset.wasmSize, 10) || 0;

  // dropLoading removes the loading box once the stage or the panel shows
  // (the Go program's start-up takes a second or more on a slow machine,
  // and the page would be blank meanwhile), or when the start failed.
  function dropLoading() {
    if (!loading.isConnected) return;
    loading.remove();
    page.loadingRemovedAt = performance.now();
  }

  function progress(got) {
    if (total > 0) {
      bar.value = Math.min(got / total, 1);
      text.textContent = got + " of " + total + " bytes";
    } else {
      bar.removeAttribute("value");
      text.textContent = got + " bytes";
    }
  }

  // instantiate downloads and compiles main.wasm at the same time
  // (instantiateStreaming), counting bytes on the way for the progress bar.
  async function instantiate(url, imports) {
    const resp = await fetch(url);
    if (!resp.ok) throw new Error(url + ": HTTP " + resp.status);
    let got = 0;
    const count = (chunk) => { got += chunk.length; progress(got); };
    if (resp.body && typeof TransformStream === "function" && WebAssembly.instantiateStreaming) {
      const counted = resp.body.pipeThrough(new TransformStream({
        transform(chunk, ctl) { count(chunk); ctl.enqueue(chunk); },
      }));
      return WebAssembly.instantiateStreaming(new Response(counted, { headers: { "Content-Type": "application/wasm" } }), imports);
    }
    const buf = await resp.arrayBuffer();
    count(new Uint8Array(buf));
    return WebAssembly.instantiate(buf, imports);
  }

  // measurePanel passes the panel's size (CSS pixels, rounded up) to the Go
  // program, which keeps the stage right of it. The Go program calls it
  // once it has set the body's mode classes and its setPanelWidth, so the
  // stage's first frame already leaves the panel's room (the style sheet
  // gives the empty mount the panel's width until the panel renders).
  // In presentation mode a folded lesson card's head sits in the bar's
  // row, right of the bar (--bar-w): the stage keeps clear of both.
  function measurePanel() {
    const r = document.getElementById("panel-mount").getBoundingClientRect();
    document.body.style.setProperty("--bar-w", Math.ceil(r.width) + "px");
    let h = r.height;
    const up = document.querySelector("#panel-mount #lesson.up");
    if (up) h = Math.max(h, up.getBoundingClientRect().bottom);
    if (page.setPanelWidth) page.setPanelWidth(Math.ceil(r.width), Math.ceil(h));
  }
  page.measurePanel = measurePanel;

  function observePanel() {
    if (typeof ResizeObserver === "undefined") return;
    new ResizeObserver(measurePanel).observe(document.getElementById("panel-mount"));
  }

  // The lesson card (site/lesson-card) takes the bottom of the window and
  // the stage the rest: observeLesson keeps the body's --lesson-h at the
  // card's height (the style sheet ends the body, and with it Ebiten's
  // canvas, above the card) and tells Ebiten, which sizes its canvas from
  // the body on the window's resize event. Folding or closing the card
  // gives the room back.
  function observeLesson() {
    if (typeof ResizeObserver === "undefined" || typeof MutationObserver === "undefined") return;
    const body = document.body;
    let card = null, shown = -1, wasUp = false;
    const apply = () => {
      const on = card && card.isConnected;
      // Folded in presentation mode, the card's head is up in the bar's
      // row (style.css's #lesson.up): the stage keeps clear of it there.
      const up = on && card.classList.contains("up");
      if (up || up !== wasUp) measurePanel();
      wasUp = up;
      const h = on && !up ? Math.ceil(card.getBoundingClientRect().height) : 0;
      if (h === shown) return;
      shown = h;
      body.style.setProperty("--lesson-h", h + "px");
      body.classList.toggle("lesson-open", h > 0);
      window.dispatchEvent(new Event("resize"));
    };
    const sizes = new ResizeObserver(apply);
    const find = () => {
      const el = document.querySelector("#panel-mount #lesson"); // not first.js's pre-rendered card
      if (el === card) return;
      if (card) sizes.unobserve(card);
      card = el;
      if (card) sizes.observe(card); // reports its size at once
      else apply();
    };
    // A class change moves the card up or down without resizing it.
    new MutationObserver(() => { find(); apply(); }).observe(document.getElementById("panel-mount"),
      { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
    find();
  }

  async function start() {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
      dropLoading();
      notice("dmaviz needs WebAssembly, and this browser does not provide it (or it is turned off). Please use a current Chrome, Firefox, Safari or Edge.");
      return;
    }
    page.webgl2 = hasWebGL2();
    if (!page.webgl2) {
      document.body.classList.add("no-webgl2");
      notice("WebGL2 is not available in this browser (or it is turned off), so the animated stage cannot start. The controls and the numbers still work.");
    }
    observePanel();
    observeLesson();
    try {
      const go = new Go();
      const { instance } = await instantiate("main.wasm", go.importObject);
      page.wasmReadyAt = performance.now();
      // The WebAssembly memory's size (it only grows: after a run, its peak).
      page.wasmBytes = () => instance.exports.mem.buffer.byteLength;
      bar.value = 1;
      text.textContent = "downloaded; starting the simulator…";
      go.run(instance).then(() => { dropLoading(); notice("dmaviz stopped. Reload the page to start it again."); });
    } catch (e) {
      dropLoading();
      notice("dmaviz could not start: " + e.message);
    }
  }
  // An embed loads the simulator only when the reader asks (first.js's
  // "Run live" button) or its URL says autoplay=1.
  const first = window.dmavizFirst;
  if (first && first.deferLive) {
    dropLoading();
    first.runLive = () => { first.runLive = null; start(); };
  } else {
    start();
  }
})();
