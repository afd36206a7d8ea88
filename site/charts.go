package site

import (
	"bytes"
	"encoding/base64"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/render/svg"
)

// Charts shows the runs' charts (e.g. the saving against entry size) as SVG
// figures drawn by the same views and writer as the docs: A's charts, then
// B's with other ids. Figures are cached per pair of results, so
// re-rendering the panel does not redraw them.
type Charts struct {
	Results [2]*scenario.Result
	AttrMap vugu.AttrMap

	of   [2]*scenario.Result
	list []scenario.Chart
	urls []string
}

func (c *Charts) charts() []scenario.Chart {
	if c.of != c.Results {
		c.of, c.list, c.urls = c.Results, nil, nil
		seen := map[string]bool{}
		for _, r := range c.Results {
			if r == nil {
				continue
			}
			for _, ch := range r.Charts {
				if !seen[ch.ID] {
					seen[ch.ID] = true
					c.list = append(c.list, ch)
				}
			}
		}
		c.urls = make([]string, len(c.list))
	}
	return c.list
}

func (c *Charts) dataURL(i int) string {
	list := c.charts()
	if i < 0 || i >= len(list) {
		return ""
	}
	if c.urls[i] == "" {
		var sc render.Scene
		render.ChartScene(&sc, &list[i], 316, 190)
		var buf bytes.Buffer
		if err := svg.Write(&buf, &sc, svg.Options{}); err != nil {
			return ""
		}
		url := "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
		if len(url) > MaxChartURL {
			url = "" // too large for one DOM update: the panel would stop
		}
		c.urls[i] = url
	}
	return c.urls[i]
}

// MaxChartURL bounds a chart's data URL: Vugu's renderer passes each DOM
// update through a 16 KiB buffer and stops the panel when one does not fit.
const MaxChartURL = 15000

func (c *Charts) caption(i int) string {
	ch := c.charts()[i]
	s := ch.YLabel + " against " + ch.XLabel
	if ch.Mark > 0 {
		s += "; the line marks the current setting"
	}
	return s
}
