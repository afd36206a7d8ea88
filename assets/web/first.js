// dmaviz first view: shows the site builder's pre-rendered view of this URL
// (dist/first: the stage as SVG and the panel as HTML) at once, without
// WebAssembly, and hands over to the live simulator once its results and
// stage are on screen. An embed without autoplay=1 loads the simulator
// only when the reader clicks "Run live" (loader.js asks deferLive). A
// lesson stop's view brings its lesson card (the question, the Reveal
// button disabled until the live view runs), in the panel or, for an
// embed, over the stage; the live card replaces it as soon as it renders.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const embed = params.get("embed") === "1";
  // Presentation mode: the panel is a bar, the stage the whole window.
  const collapsed = !embed && params.get("panel") === "collapsed";
  const first = {
    deferLive: embed && params.get("autoplay") !== "1",
    view: null,
    shownAt: 0, // the pre-rendered stage and panel are on screen
    resultsAt: 0, // the pre-rendered panel's numbers are on screen
    liveAt: 0, // the live simulator has taken over
    cardAt: 0, // the live lesson card replaced the pre-rendered one
    runLive: null, // set by loader.js
  };
  window.dmavizFirst = first;

  // viewKey is the URL query as the builder keys its views
  // (cmd/sitebuild's ViewKey): decoded pairs, no autoplay, sorted.
  function viewKey(search) {
    const pairs = [];
    for (const [k, v] of new URLSearchParams(search)) {
      if (k !== "autoplay") pairs.push(k + "=" + v);
    }
    return pairs.sort().join("&");
  }

  let index = {};
  try {
    index = JSON.parse(document.getElementById("first-views").textContent);
  } catch (e) {
    index = {};
  }
  const n = (index.views || {})[viewKey(location.search)];
  const view = n === undefined ? null : (index.files || [])[n] || null;
  first.view = view;
  const body = document.body;
  if (embed) body.classList.add("embed");
  if (collapsed && view) body.classList.add("collapsed");

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text) e.textContent = text;
    return e;
  }

  // placeholderTitle names what an embed with no pre-rendered view shows:
  // its lesson stop, or its scenario.
  function placeholderTitle() {
    const stops = (index.lessons || {})[params.get("lesson")];
    if (stops && stops.length) {
      const n = Math.min(Math.max(parseInt(params.get("stop"), 10) || 1, 1), stops.length);
      return "Stop " + n + " of " + stops.length + ": " + stops[n - 1];
    }
    const scenario = params.get("scenario") || index.default || "";
    return (index.titles || {})[scenario] || "dmaviz";
  }

  // staticCard makes the pre-rendered lesson card (ids "first-…") look
  // and sit as the live one does (the style sheet places #lesson), with
  // its buttons disabled until the live view runs.
  function staticCard(root) {
    const card = root.querySelector("#first-lesson");
    if (!card) return;
    card.id = "lesson";
    card.setAttribute("aria-hidden", "true");
    card.classList.add("first-card");
    for (const b of card.querySelectorAll("button")) b.disabled = true;
    const reveal = card.querySelector("#first-lesson-reveal");
    if (reveal) reveal.title = embed ? "Run live to reveal the answer" : "The answer can be revealed once the live simulator runs";
  }

  // holdCardRoom ends the stage above the pre-rendered lesson card, as
  // loader.js does for the live card (the body's --lesson-h and
  // lesson-open): the pre-rendered stage takes the box the live one will,
  // and the card covers none of it.
  function holdCardRoom(card) {
    if (!card) return;
    const apply = () => {
      if (!card.isConnected) return; // the live card's observer has it
      body.style.setProperty("--lesson-h", Math.ceil(card.getBoundingClientRect().height) + "px");
      body.classList.add("lesson-open");
    };
    apply();
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(apply).observe(card);
  }

  const stage = el("div", { id: "fv-stage" });
  const parts = [];
  if (view) {
    const img = el("img", { src: "first/" + view.file + ".svg", alt: (index.titles || {})[view.scenario] || "dmaviz", width: view.w, height: view.h });
    stage.appendChild(img);
    parts.push(img.decode().catch(() => {}));
  } else if (embed) {
    const box = el("div", { class: "first-placeholder" });
    box.appendChild(el("div", { class: "first-title" }, placeholderTitle()));
    box.appendChild(el("div", { class: "hint" }, "An interactive figure: it runs the simulator when you ask."));
    stage.appendChild(box);
  }
  if (view || embed) {
    body.classList.add("first-view");
    body.appendChild(stage);
  }
  if (view && (!view.embed || view.card)) {
    // The panel, or an embed's lesson card.
    const panel = el("div", { id: view.embed ? "fv-card" : "fv-panel", "aria-hidden": "true" });
    body.appendChild(panel);
    parts.push(fetch("first/" + view.file + ".html")
      .then((r) => (r.ok ? r.text() : ""))
      .then((html) => {
        panel.innerHTML = html;
        staticCard(panel);
        holdCardRoom(panel.querySelector(".first-card"));
        if (!view.embed) requestAnimationFrame(() => { first.resultsAt = performance.now(); });
      }));
  }
  if (embed) {
    const bar = el("div", { id: "fv-bar" });
    if (first.deferLive) {
      const title = view && view.card ? "Load the simulator: play this stop and reveal its answer" : "Load the simulator and run this figure live";
      const btn = el("button", { id: "run-live", type: "button", title: title }, "▶ Run live");
      btn.addEventListener("click", () => {
        btn.disabled = true;
        btn.textContent = "Loading the simulator…";
        if (first.runLive) first.runLive();
      });
      bar.appendChild(btn);
    }
    const full = new URLSearchParams(location.search);
    full.delete("embed");
    full.delete("autoplay");
    bar.appendChild(el("a", { href: "?" + full.toString(), target: "_blank", rel: "noopener" }, "open in dmaviz ↗"));
    body.appendChild(bar);
  } else if (view) {
    body.appendChild(el("div", { id: "fv-status", role: "status" }, "Pre-rendered view · starting the live simulator…"));
  }
  if (view) {
    Promise.all(parts).then(() => requestAnimationFrame(() => {
      first.shownAt = performance.now();
      performance.mark("dmaviz:first-view");
    }));
  }

  // The live simulator takes over once its results are in, its panel shows
  // them and its stage has drawn them: then the pre-rendered view goes.
  let framesAtResults = -1;
  let resultsSeenAt = 0;
  function liveReady() {
    const page = window.dmaviz;
    if (!page || !page.resultsReadyAt) return false;
    if (framesAtResults < 0) {
      framesAtResults = page.frames || 0;
      resultsSeenAt = performance.now();
    }
    const stageDrawn = !page.webgl2 || (page.frames || 0) > framesAtResults || performance.now() - resultsSeenAt > 1000;
    const panelDrawn = embed || !!document.querySelector(collapsed ? "#panel-mount .collapsed-bar" : "#panel-mount #metrics tbody tr");
    return stageDrawn && panelDrawn;
  }
  // handCard drops the pre-rendered lesson card once the live one is on
  // the page, at the same place: the teacher can reveal at once.
  function handCard() {
    if (!document.querySelector("#panel-mount #lesson")) return;
    const card = document.querySelector(".first-card");
    if (!card) return;
    card.remove();
    first.cardAt = performance.now();
  }
  function watch() {
    handCard();
    if (!liveReady()) {
      requestAnimationFrame(watch);
      return;
    }
    requestAnimationFrame(() => {
      for (const id of ["fv-stage", "fv-panel", "fv-card", "fv-status", "fv-bar"]) {
        const e = document.getElementById(id);
        if (e) e.remove();
      }
      body.classList.remove("first-view");
      first.liveAt = performance.now();
      performance.mark("dmaviz:live");
    });
  }
  requestAnimationFrame(watch);
})();
