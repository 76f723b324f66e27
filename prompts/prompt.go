// Package prompts is the registry of Giftwell's MCP prompts: named,
// argument-checked instructions that walk an agent through the spec's flows.
// A prompt only renders text; it reads and changes nothing.
package prompts

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
)

// Argument is one named argument of a prompt. MCP passes prompt arguments
// as strings.
type Argument struct {
	Name        string
	Description string
	Required    bool
	// MaxLength caps the value, in characters.
	MaxLength int
}

// Prompt is one prompt of the registry.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Arguments   []Argument
	// render builds the instructions from checked arguments; an absent
	// optional argument is "".
	render func(args map[string]string) string
}

// Render checks args against the prompt's arguments and returns its
// instructions. It returns VALIDATION_ERROR naming the argument when one is
// unknown, a required one is missing or blank, or one is too long.
//
//	text, err := prompts.ByName()["start_playbook"].Render(map[string]string{"goal": "book demos"})
func (p Prompt) Render(args map[string]string) (string, error) {
	known := make(map[string]Argument, len(p.Arguments))
	for _, a := range p.Arguments {
		known[a.Name] = a
	}
	var unknown []string
	for name := range args {
		if _, ok := known[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return "", core.Invalid(unknown[0], "is not an argument of %s (arguments: %s)", p.Name, p.argumentNames())
	}
	clean := make(map[string]string, len(p.Arguments))
	for _, a := range p.Arguments {
		v := strings.TrimSpace(args[a.Name])
		if a.Required && v == "" {
			return "", core.Invalid(a.Name, "is required")
		}
		if a.MaxLength > 0 && utf8.RuneCountInString(v) > a.MaxLength {
			return "", core.Invalid(a.Name, "must be at most %d characters", a.MaxLength)
		}
		clean[a.Name] = v
	}
	return p.render(clean), nil
}

func (p Prompt) argumentNames() string {
	names := make([]string, len(p.Arguments))
	for i, a := range p.Arguments {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// All returns every prompt, in a fixed order.
func All() []Prompt {
	return []Prompt{startPlaybook(), addPeopleToPlaybook(), prepareBatchCampaign()}
}

// ByName returns the prompts indexed by name.
func ByName() map[string]Prompt {
	m := map[string]Prompt{}
	for _, p := range All() {
		m[p.Name] = p
	}
	return m
}
