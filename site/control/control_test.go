package control

import "testing"

func TestDrainKeepsOrderAndEmpties(t *testing.T) {
	var c Controller
	c.Send(Command{Kind: CmdSetGridCells, Int: 64})
	c.Send(Command{Kind: CmdSetGridColour, Text: "orange"})
	got := c.Drain(nil)
	if len(got) != 2 || got[0].Int != 64 || got[1].Text != "orange" {
		t.Fatalf("Drain = %+v", got)
	}
	if again := c.Drain(got); len(again) != 0 {
		t.Fatalf("second Drain = %+v, want empty", again)
	}
}

func TestPublishNotifiesOnlyOnRealChange(t *testing.T) {
	var c Controller
	calls := 0
	c.OnPublish(func() { calls++ })
	c.Publish(Published{Cells: 64, Frames: 1})
	c.Publish(Published{Cells: 64, Frames: 2, Updates: 5})
	if calls != 1 {
		t.Fatalf("frame-count-only publish notified: %d calls, want 1", calls)
	}
	c.Publish(Published{Cells: 128, Frames: 3})
	if calls != 2 {
		t.Fatalf("cell change did not notify: %d calls", calls)
	}
	if p := c.Published(); p.Cells != 128 || p.Frames != 3 {
		t.Fatalf("Published() = %+v", p)
	}
}
