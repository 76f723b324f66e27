package gift

import (
	"encoding/json"
	"fmt"
	"time"
)

// A gift records who prepared it and who decided it, as they were named
// when it was approved, once, in the approval's transaction, and never
// rewritten: the first questions a finance or security reviewer asks.

// PreparedBy is who prepared a gift: the agent's workspace key, the
// connected app with the person who connected it, or a person in the web
// app.
type PreparedBy struct {
	Kind        string `json:"kind" jsonschema:"key, connection or person" schema:"enum=key|connection|person"`
	Name        string `json:"name" jsonschema:"the key's name, the connected app's name, or the person's name"`
	PersonEmail string `json:"personEmail,omitempty" jsonschema:"the person who owns the key, connected the app, or prepared it"`
}

// DecidedBy is who approved a gift: a person, or the auto-approve rule at
// a policy version.
type DecidedBy struct {
	Kind        string `json:"kind" jsonschema:"person or rule" schema:"enum=person|rule"`
	Name        string `json:"name" jsonschema:"the person's name, or Auto-approve"`
	Email       string `json:"email,omitempty" jsonschema:"the person's email"`
	RuleVersion int64  `json:"ruleVersion,omitempty" jsonschema:"for a rule: the playbook's policyVersion it decided under"`
}

// The kinds of PreparedBy and DecidedBy.
const (
	PreparedByKey        = "key"
	PreparedByConnection = "connection"
	PreparedByPerson     = "person"
	DecidedByPerson      = "person"
	DecidedByRule        = "rule"
)

// AutoApproveName is the name DecidedBy gives the auto-approve rule.
const AutoApproveName = "Auto-approve"

// Trail is what a new gift records of its preparation and decision.
type Trail struct {
	PreparedBy *PreparedBy
	DecidedBy  *DecidedBy
}

// trailJSON is the stored form of t's two parts (nil when absent).
func (t Trail) trailJSON() (prepared, decided []byte, err error) {
	if t.PreparedBy != nil {
		if prepared, err = json.Marshal(t.PreparedBy); err != nil {
			return nil, nil, err
		}
	}
	if t.DecidedBy != nil {
		if decided, err = json.Marshal(t.DecidedBy); err != nil {
			return nil, nil, err
		}
	}
	return prepared, decided, nil
}

// readTrail fills g's trail from the stored columns.
func readTrail(g *Gift, prepared, decided []byte, at *time.Time) error {
	if len(prepared) > 0 {
		g.PreparedBy = &PreparedBy{}
		if err := json.Unmarshal(prepared, g.PreparedBy); err != nil {
			return fmt.Errorf("gift %s: prepared_by: %w", g.ID, err)
		}
	}
	if len(decided) > 0 {
		g.DecidedBy = &DecidedBy{}
		if err := json.Unmarshal(decided, g.DecidedBy); err != nil {
			return fmt.Errorf("gift %s: decided_by: %w", g.ID, err)
		}
	}
	if at != nil {
		t := at.UTC()
		g.DecidedAt = &t
	}
	return nil
}
