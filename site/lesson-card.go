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

func (c *LessonCard) class() string {
	if c.App.Lesson.Folded {
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
	if c.App.Lesson.Folded {
		return "Show the stop's text"
	}
	return "Fold the text away to see the stage"
}

func (c *LessonCard) foldLabel() string {
	if c.App.Lesson.Folded {
		return "▴"
	}
	return "▾"
}

func (c *LessonCard) close() { c.App.CloseLesson() }
