package web

import (
	"net/url"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// view is what every page template receives. The layout reads Shell, Nav,
// Notice and Problem; the page reads Data and draws its forms with Field.
type view struct {
	// Nav names the header link of the current page: home, campaigns, team, keys or settings.
	Nav string
	// Shell is the header of a signed-in page; nil when nobody is signed in.
	Shell *shell
	// Notice is a short success message shown at the top (role=status).
	Notice string
	// Problem is what went wrong with the last form, if anything.
	Problem *problem
	// Values are the form's values to show: the submitted ones after a
	// problem, or the stored ones on a fresh page.
	Values url.Values
	// Data is the page's own content.
	Data any
}

// shell is the header of every signed-in page.
type shell struct {
	// Workspace is the workspace the session acts in.
	Workspace identity.WorkspaceSummary
	// Workspaces are all the person's workspaces; the switcher shows when
	// there are several.
	Workspaces []identity.WorkspaceSummary
	Email      string
	Role       core.Role
}

// field is one labelled input as the "field" partial draws it, with its
// hint and its error wired to aria-describedby.
type field struct {
	Name, Label, Type string
	Value             string
	Hint              string
	Error             string
	Placeholder       string
	Autocomplete      string
	MaxLength         int
	Required          bool
	ReadOnly          bool
	Autofocus         bool
}

// ID is the input's id, the field's name.
func (f field) ID() string { return f.Name }

// HintID is the id of the hint paragraph.
func (f field) HintID() string { return f.Name + "-hint" }

// ErrorID is the id of the error message.
func (f field) ErrorID() string { return f.Name + "-error" }

// DescribedBy lists the ids of the hint and the error, for aria-describedby.
func (f field) DescribedBy() string {
	var ids []string
	if f.Hint != "" {
		ids = append(ids, f.HintID())
	}
	if f.Error != "" {
		ids = append(ids, f.ErrorID())
	}
	return strings.Join(ids, " ")
}

// Field builds an input named name with its value and its error from the
// view. Passwords are never refilled.
func (v view) Field(name, label, typ string) field {
	f := field{Name: name, Label: label, Type: typ}
	if typ != "password" {
		f.Value = v.Values.Get(name)
	}
	f.Error = v.FieldError(name)
	return f
}

// FieldError is the problem's message when it is about the named field.
func (v view) FieldError(name string) string {
	if v.Problem == nil {
		return ""
	}
	if v.Problem.Field == name {
		return v.Problem.Message
	}
	for _, o := range v.Problem.Others {
		if o.Field == name {
			return o.Message
		}
	}
	return ""
}
