package site

import (
	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/lesson"
	"github.com/dmaviz/dmaviz/site/app"
)

// LessonCard shows the open lesson's stop over the stage: its position
// and title, the question (then the answer and what to watch), the
// teacher's note folded, and the buttons between stops. Go opens a stop
// (and starts its run).
type LessonCard struct {
	App     *app.App
	Go      func(stop int)
	AttrMap vugu.AttrMap
}

func (c *LessonCard) stop() lesson.Stop { return c.App.LessonStop() }
func (c *LessonCard) stops() int        { return len(c.App.LessonPath().Stops) }

func (c *LessonCard) position() string {
	return "Stop " + lesson.Position(c.App.State.Stop, c.stops())
}

// class is the card's: folded to its head line while Folded, which in
// presentation mode goes up into the bar's row ("up"), so that the stage
// has the whole window and its narration row back.
func (c *LessonCard) class() string {
	switch {
	case c.App.Lesson.Folded && c.App.Presenting():
		return "lesson folded up"
	case c.App.Lesson.Folded:
		return "lesson folded"
	}
	return "lesson"
}

func (c *LessonCard) open(n int) {
	if c.Go != nil {
		c.Go(n)
	}
}

func (c *LessonCard) reveal() {
	c.App.Lesson.Revealed = !c.App.Lesson.Revealed
	c.App.Lesson.Folded = false
}

func (c *LessonCard) revealLabel() string {
	if c.App.Lesson.Revealed {
		return "Question"
	}
	return "Reveal"
}

func (c *LessonCard) fold() { c.App.Lesson.Folded = !c.App.Lesson.Folded }

func (c *LessonCard) foldTitle() string {
	switch {
	case c.App.Lesson.Folded:
		return "Show the stop's text"
	case c.App.Presenting():
		return "Fold the text away: the stage shows its step-by-step narration in its place"
	}
	return "Fold the text away to see the stage"
}

// foldLabel names what folding gives in presentation mode, where the
// open card stands in the stage's narration row: the narration.
func (c *LessonCard) foldLabel() string {
	switch {
	case c.App.Lesson.Folded && c.App.Presenting():
		return "▴ Card"
	case c.App.Lesson.Folded:
		return "▴"
	case c.App.Presenting():
		return "▾ Narration"
	}
	return "▾"
}

func (c *LessonCard) close() { c.App.CloseLesson() }
