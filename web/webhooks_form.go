package web

import (
	"slices"
	"strings"
)

// The webhooks form has a group of checkboxes (the event names), which
// the "field" partial does not draw: these read the group's state.

// Checked reports whether the checkbox named name with value is ticked in
// the view's values (the submitted ones after a problem).
func (v view) Checked(name, value string) bool {
	return slices.Contains(v.Values[name], value)
}

// GroupError is the problem's message when it is about the field group
// name: the field itself or one of its items (name[i]).
func (v view) GroupError(name string) string {
	if v.Problem == nil {
		return ""
	}
	if f := v.Problem.Field; f == name || strings.HasPrefix(f, name+"[") {
		return v.Problem.Message
	}
	for _, o := range v.Problem.Others {
		if o.Field == name || strings.HasPrefix(o.Field, name+"[") {
			return o.Message
		}
	}
	return ""
}
