package control

// KeyCommand maps a keyboard key (KeyboardEvent.key) to a player command:
// Space play or pause, Left/Right a narration step (a step the stage and
// the captions show), Shift+Left/Right one model event (a fine step), +/-
// speed, Home/End jump.
func KeyCommand(key string, shift bool) (Command, bool) {
	switch key {
	case " ", "Spacebar":
		return Command{Kind: CmdToggle}, true
	case "ArrowLeft", "ArrowRight":
		dir := int64(1)
		if key == "ArrowLeft" {
			dir = -1
		}
		if shift {
			return Command{Kind: CmdStepEvent, Int: dir}, true
		}
		return Command{Kind: CmdStepNarration, Int: dir}, true
	case "+", "=":
		return Command{Kind: CmdFaster}, true
	case "-", "_":
		return Command{Kind: CmdSlower}, true
	case "Home":
		return Command{Kind: CmdStart}, true
	case "End":
		return Command{Kind: CmdEnd}, true
	}
	return Command{}, false
}

// KeyMap is the key map the "?" overlay shows, one key and action a line.
var KeyMap = [][2]string{
	{"Space", "play or pause"},
	{"← →", "previous / next narration step"},
	{"Shift + ← →", "one model event back / forward (fine step)"},
	{"Home / End", "jump to the start / end"},
	{"+ / −", "faster / slower"},
	{"0", "reset the buffer zoom (mouse wheel zooms)"},
	{"PageDown / PageUp", "lesson: the answer, then the next stop / back"},
	{"?", "show or hide this key map"},
	{"Esc", "hide this key map"},
}
