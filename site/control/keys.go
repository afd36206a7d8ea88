package control

// KeyCommand maps a keyboard key (KeyboardEvent.key) to a player command:
// Space play or pause, Left/Right step by event, Shift+Left/Right by
// narration step, +/- speed, Home/End jump.
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
			return Command{Kind: CmdStepNarration, Int: dir}, true
		}
		return Command{Kind: CmdStepEvent, Int: dir}, true
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
