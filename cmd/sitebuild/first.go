package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/internal/embedpage"
	"github.com/dmaviz/dmaviz/lesson"
	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/site/app"
	"github.com/dmaviz/dmaviz/site/firstview"
	"github.com/dmaviz/dmaviz/urlstate"
)

// The pre-rendered stages' sizes in CSS pixels: the page's stage in a
// 1440 x 900 window (less the panel's 340 px), and the embed code's
// 960 x 600 iframe less the 40 px its "Run live" bar takes at the bottom
// (style.css), as the live stage keeps clear of its embed bar; a lesson
// in presentation mode, the whole window of a 720p projector. A lesson
// stop's stage ends above its card, as the live page's does: the sizes
// with the card open as measured in the live page (155 px high at
// 1440 x 900, 163 px in presentation at 1280 x 720, 179 px in an embed,
// for a question of three lines; first.js ends the stage box above the
// card it shows, and a longer question scales the figure down a little).
const (
	pageW, pageH       = 1100, 900
	embedW, embedH     = 960, 560
	presentW, presentH = 1280, 720

	lessonPageH, lessonPresentH, lessonEmbedH = 900 - 155, 720 - 163, 600 - 179 - 40
)

// firstIndex is the page's map of pre-rendered first views, written into
// index.html as a JSON data block: the loader looks the URL up in it
// before anything else loads.
type firstIndex struct {
	// Views maps each ViewKey to its view in Files: a view has several
	// keys (its URL as written and as the live page shows it), and every
	// embed of a documentation page downloads the index.
	Views  map[string]int    `json:"views"`
	Files  []firstEntry      `json:"files"`
	Titles map[string]string `json:"titles"` // scenario titles: the views' and, for embeds with no view, the placeholder's
	// Lessons lists each lesson path's stop titles in order, for lesson
	// embeds with no view.
	Lessons map[string][]string `json:"lessons"`
	// Default is the scenario a URL that names none opens.
	Default string `json:"default"`
}

type firstEntry struct {
	File     string `json:"file"` // first/<file>.svg, .html, .json
	Scenario string `json:"scenario"`
	Embed    bool   `json:"embed,omitempty"`
	// Card says the view has an .html of its own though it is an embed:
	// the lesson card, shown over the stage.
	Card bool `json:"card,omitempty"`
	W    int  `json:"w"`
	H    int  `json:"h"`
}

// view is the view of a URL query, if it has one.
func (idx *firstIndex) view(query string) (firstEntry, bool) {
	n, ok := idx.Views[ViewKey(query)]
	if !ok {
		return firstEntry{}, false
	}
	return idx.Files[n], true
}

// ViewKey is a URL query as the loader looks it up: its key=value pairs,
// decoded, without autoplay, sorted and joined by "&" (assets/web/first.js
// computes the same).
func ViewKey(query string) string {
	v, _ := url.ParseQuery(strings.TrimPrefix(query, "?"))
	var pairs []string
	for k, vs := range v {
		if k == urlstate.KeyAutoplay {
			continue
		}
		for _, x := range vs {
			pairs = append(pairs, k+"="+x)
		}
	}
	sort.Strings(pairs)
	return strings.Join(pairs, "&")
}

// buildFirst pre-renders every scenario's opening setting, every lesson
// stop (as a page, in presentation mode and as an embed) and every URL
// listed in embedsFile (one query a line; # starts a comment) into
// out/first, and returns the index for the page.
func buildFirst(out, embedsFile string) (*firstIndex, error) {
	dir := filepath.Join(out, "first")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	reg := catalog.Registry()
	idx := &firstIndex{Views: map[string]int{}, Titles: map[string]string{}, Lessons: map[string][]string{}, Default: app.DefaultScenario(reg)}
	add := func(query string, w, h int, aliases ...string) error {
		v, err := firstview.Render(reg, platform.Parameters, query, w, h)
		if err != nil {
			return err
		}
		n := len(idx.Files)
		file := fmt.Sprintf("v%d", n)
		if err := writeView(dir, file, v); err != nil {
			return err
		}
		idx.Files = append(idx.Files, firstEntry{File: file, Scenario: v.Scenario, Embed: v.Embed, Card: v.Embed && v.Panel != nil, W: w, H: h})
		for _, q := range append(aliases, query, v.Query) {
			if _, dup := idx.Views[ViewKey(q)]; !dup {
				idx.Views[ViewKey(q)] = n
			}
		}
		return nil
	}
	for _, s := range reg.All() {
		sp := s.Spec()
		idx.Titles[sp.ID] = sp.Title
		var aliases []string
		if sp.ID == idx.Default {
			aliases = []string{""}
		}
		if err := add("scenario="+sp.ID, pageW, pageH, aliases...); err != nil {
			return nil, err
		}
	}
	for _, p := range lesson.Paths() {
		for _, st := range p.Stops {
			idx.Lessons[p.ID] = append(idx.Lessons[p.ID], st.Title)
		}
		for _, l := range LessonQueries(p) {
			if err := add(l.Query, l.W, l.H, l.Aliases...); err != nil {
				return nil, err
			}
		}
	}
	queries, err := embedpage.Queries(embedsFile)
	if err != nil {
		return nil, err
	}
	for _, q := range queries {
		w, h := pageW, pageH
		if st, _ := (&urlstate.Codec{Registry: reg}).Decode(q); st.Embed {
			w, h = embedW, embedH
		}
		if err := add(q, w, h); err != nil {
			return nil, fmt.Errorf("%s: %w", embedsFile, err)
		}
	}
	return idx, nil
}

// LessonQuery is a lesson stop's URL as a page, in presentation mode or
// as an embed, with the URLs that open the same view (the first stop's
// without stop=) and the size of its stage.
type LessonQuery struct {
	Query   string
	Aliases []string
	W, H    int
}

// lessonModes are the ways a lesson is opened: the page, presentation
// mode on a 720p projector (the whole window is the stage) and the embed.
var lessonModes = []struct {
	suffix string
	w, h   int
}{
	{"", pageW, lessonPageH},
	{"&" + urlstate.KeyPanel + "=collapsed", presentW, lessonPresentH},
	{"&" + urlstate.KeyEmbed + "=1", embedW, lessonEmbedH},
}

// LessonQueries lists every stop of p in each of lessonModes: the URLs a
// teacher opens and a docs author pastes (autoplay=1 aside, which ViewKey
// drops).
func LessonQueries(p lesson.Path) []LessonQuery {
	var out []LessonQuery
	for n := range p.Stops {
		for _, m := range lessonModes {
			base := urlstate.KeyLesson + "=" + url.QueryEscape(p.ID) + m.suffix
			l := LessonQuery{Query: base + "&" + urlstate.KeyStop + "=" + strconv.Itoa(n+1), W: m.w, H: m.h}
			if n == 0 {
				l.Aliases = []string{base}
			}
			out = append(out, l)
		}
	}
	return out
}

// writeView writes a view's files, with gzip and Brotli copies of its
// figure (a large buffer's figure is a few hundred KB of SVG, a tenth of
// that compressed).
func writeView(dir, file string, v *firstview.View) error {
	files := map[string][]byte{".svg": v.SVG, ".json": v.Results}
	if v.Panel != nil {
		files[".html"] = staticIDs(v.Panel)
	}
	for ext, b := range files {
		if err := os.WriteFile(filepath.Join(dir, file+ext), b, 0o644); err != nil {
			return err
		}
	}
	svg := filepath.Join(dir, file+".svg")
	if err := compressFile(svg, svg+".gz", gzipLevel); err != nil {
		return err
	}
	return compressFile(svg, svg+".br", brotliLevel)
}

var idAttr = regexp.MustCompile(`(\s)(id|for)="`)

// staticIDs prefixes the pre-rendered panel's ids with "first-": it sits
// beside the live panel until the live one takes over, and the page's code
// (and its tests) find elements by id.
func staticIDs(panel []byte) []byte {
	return idAttr.ReplaceAll(panel, []byte(`${1}${2}="first-`))
}

// indexBlock is the index as the text of index.html's JSON data block
// (a <script type="application/json"> runs nothing, so the page's CSP
// allows it).
func indexBlock(idx *firstIndex) (string, error) {
	b, err := json.Marshal(idx)
	if err != nil {
		return "", err
	}
	// Inside <script>, only "</" could end the block early.
	return strings.ReplaceAll(string(b), "</", `<\/`), nil
}
