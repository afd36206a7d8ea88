package site

import (
	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// ParamField is the control for one scenario parameter, generated from its
// declaration: a drop-down for choices and booleans, a text field otherwise,
// with the allowed range under it or the validation message when the text
// was refused. It raises OnSet with the parameter name and the text.
type ParamField struct {
	Param   *scenario.Param
	Text    string
	Err     string
	OnSet   func(name, text string)
	AttrMap vugu.AttrMap
}

func (c *ParamField) id() string { return "param-" + c.Param.Name }
func (c *ParamField) isChoice() bool {
	return c.Param.Kind == scenario.KindChoice || c.Param.Kind == scenario.KindBool
}

func (c *ParamField) inputClass() string {
	if c.Err != "" {
		return "bad"
	}
	return ""
}

func (c *ParamField) options() []Option { return paramOptions(c.Param) }

// paramOptions is a choice or boolean parameter's drop-down entries.
func paramOptions(d *scenario.Param) []Option {
	if d.Kind == scenario.KindBool {
		return []Option{{"true", "yes"}, {"false", "no"}}
	}
	out := make([]Option, len(d.Choices))
	for i, ch := range d.Choices {
		label := ch.Label
		if label == "" {
			label = ch.Value
		}
		out[i] = Option{ch.Value, label}
	}
	return out
}

func (c *ParamField) set(text string) {
	if c.OnSet != nil {
		c.OnSet(c.Param.Name, text)
	}
}
