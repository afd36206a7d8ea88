package scenario

import (
	"fmt"
	"strings"
)

// Size names one of a scenario's two settings.
// The paper setting is the published measurement: the parameters'
// defaults, which the CLI runs and the references were measured at. The
// lesson setting is made for watching: few enough lines, entries and
// pages that each is a cell and each step shows at normal speed, with
// every Bug policy reporting its hazard and every correct policy's cost
// difference against A visible.
type Size uint8

const (
	SizePaper  Size = iota // the defaults: the published setting
	SizeLesson             // Spec.Lesson over the defaults
)

var sizeNames = [...]string{"paper", "lesson"}

func (s Size) String() string {
	if int(s) < len(sizeNames) {
		return sizeNames[s]
	}
	return fmt.Sprintf("size(%d)", uint8(s))
}

// ParseSize reads "lesson" or "paper"; the error names the allowed values.
func ParseSize(text string) (Size, error) {
	for i, n := range sizeNames {
		if strings.TrimSpace(text) == n {
			return Size(i), nil
		}
	}
	return SizePaper, fmt.Errorf("size: %q is not allowed; allowed %s", text, strings.Join(sizeNames[:], " or "))
}

// Setting is one parameter's value in canonical text, e.g. {"buffer",
// "16KiB"}.
type Setting struct{ Name, Value string }

// SizeParams returns every parameter at size: the defaults for paper, the
// defaults overlaid by Spec.Lesson for lesson. An error means the spec's
// lesson names an unknown parameter or a value its parameter refuses (a
// test checks every scenario's).
func (s *Spec) SizeParams(size Size) (Params, error) {
	p, err := s.Defaults()
	if err != nil || size != SizeLesson {
		return p, err
	}
	for _, v := range s.Lesson {
		if err := s.Set(p, v.Name, v.Value); err != nil {
			return nil, fmt.Errorf("scenario %s: bad lesson setting: %w", s.ID, err)
		}
	}
	return p, nil
}

// AtSize reports whether every parameter of p has its value at size.
func (s *Spec) AtSize(p Params, size Size) bool {
	want, err := s.SizeParams(size)
	if err != nil {
		return false
	}
	for _, d := range s.Params {
		if p[d.Name] != want[d.Name] {
			return false
		}
	}
	return true
}
