package site

import "github.com/vugu/vugu"

// Option is one entry of a Choice.
type Option struct{ Value, Label string }

// Choice is a labelled drop-down. It raises OnChange with the chosen value.
type Choice struct {
	ID       string
	Label    string
	Help     string
	Options  []Option
	Value    string
	OnChange func(value string)
	AttrMap  vugu.AttrMap
}

func (c *Choice) changed(v string) {
	if c.OnChange != nil {
		c.OnChange(v)
	}
}
