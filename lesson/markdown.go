package lesson

import (
	"fmt"
	"strings"
)

// Markdown is the path's walk-through for the docs (docs/LESSON.md): how
// to open and drive it, then each stop with its screenshot (screens/
// lesson-SCENARIO.png beside the page), question, answer and note. A test
// keeps the file equal to it, so the docs quote the same figures as the
// page.
func (p Path) Markdown() string {
	var b strings.Builder
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	f("# The lesson path: %s\n\n", p.Title)
	f("Open `?lesson=%s` (or `?lesson=%s&stop=N` for stop N: the address bar always carries the stop, so a link "+
		"shares it). Each stop opens one scenario at its lesson size with a policy pair chosen for the point it "+
		"makes. A card at the bottom of the window, under the stage (which keeps the rest of the window and never "+
		"lies under the card), shows the stop's number and title, then:\n\n", p.ID, p.ID)
	f("1. **the question** to ask the class, before anything is revealed: until Reveal the page keeps the answer " +
		"back (the metrics and the stage's counters show their rows with \"?\" for the values, the hazards, charts " +
		"and the SMMU stage's latency histogram wait, the timeline draws only what has elapsed, and the narration leaves out the answer's figures);\n")
	f("2. **Reveal** (or PageDown) shows the answer, with the figures the model gives at this size, and what to " +
		"watch on the stage while it plays; the scenario's own narration runs with it (in the panel, or on the " +
		"stage in presentation mode);\n")
	f("3. **the teacher's note**, folded: what to point at, the figure to quote, and the misconception the stop " +
		"answers.\n\n")
	f("PageDown (what a presentation clicker sends) shows the answer, then the next stop; PageUp the question, then " +
		"the previous stop. The ◀ Stop / Stop ▶ buttons move between stops; ▾ folds the card to its head line, " +
		"giving the stage the room; ✕ leaves the lesson. A new stop opens paused at its start: press Space or Play when the class has " +
		"answered. `panel=collapsed` is presentation mode (the lesson's text and the stage's are 18 px or more at 1280x720): " +
		"there the open card takes the place of the stage's narration row, so the stage keeps its full size with the card below it; " +
		"\"▾ Narration\" folds the card's head up beside the transport and gives the stage the whole window, with the step-by-step narration under its columns; " +
		"with `embed=1` the card takes the bottom of the embed and the embed's bar sits just above it.\n\n")
	f("Every figure below is the model's at the lesson size (or the paper size where it says so), checked by a " +
		"test against a run, so it changes when the model does.\n\n")
	f("![Stop 2's question in presentation mode, 1280x720](screens/lesson-card-present-1280x720.png)\n\n")
	f("![Stop 3's answer in the page, 1440x900](screens/lesson-card-answer-1440x900.png)\n\n")
	f("![Stop 4 as a 960x600 embed: the stage at its start above the card](screens/lesson-card-embed-960x600.png)\n\n")
	for i, s := range p.Stops {
		f("## Stop %s: %s\n\n", Position(i+1, len(p.Stops)), s.Title)
		f("`?lesson=%s&stop=%d`: scenario `%s`, A `%s`, B `%s`, lesson size.\n\n", p.ID, i+1, s.Scenario, s.A, s.B)
		f("![%s at its lesson size, playing (1440x900)](screens/lesson-%s.png)\n\n", s.Scenario, s.Scenario)
		f("**Ask the class.** %s\n\n", s.Question)
		f("**Answer.** %s\n\n", s.Answer)
		f("**Watch.** %s\n\n", s.Watch)
		f("**Teacher's note.**\n\n")
		f("- *Point at:* %s\n", s.Note.Point)
		f("- *Quote:* %s\n", s.Note.Quote)
		f("- *Misconception:* %s\n\n", s.Note.Misconception)
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}
