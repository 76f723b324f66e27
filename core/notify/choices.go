package notify

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Choice is whether a person gets one kind of email.
type Choice struct {
	Kind Kind
	On   bool
}

// Choices returns, for every kind in order, whether the signed-in person p
// gets it from p's workspace: what they chose, or the kind's default for
// their role. It returns HUMAN_APPROVAL_REQUIRED for a key or connection
// (choices are a person's own) or INTERNAL_ERROR.
func (s *Service) Choices(ctx context.Context, p core.Principal) ([]Choice, error) {
	if err := personOnly(s.Config, p); err != nil {
		return nil, err
	}
	rows, err := db.New(s.DB).NotificationChoiceList(ctx, db.NotificationChoiceListParams{WorkspaceID: p.WorkspaceID, UserID: p.UserID})
	if err != nil {
		return nil, core.Internal(err)
	}
	chosen := map[Kind]bool{}
	for _, r := range rows {
		chosen[Kind(r.Kind)] = r.Enabled
	}
	out := make([]Choice, 0, len(Kinds()))
	for _, k := range Kinds() {
		on, ok := chosen[k]
		if !ok {
			on = k.DefaultOn(p.Role)
		}
		out = append(out, Choice{Kind: k, On: on})
	}
	return out, nil
}

// SetChoices stores what the signed-in person p gets from p's workspace:
// every kind in on is turned on, every other kind off. It returns
// VALIDATION_ERROR naming a kind that does not exist, the codes of
// Choices, or INTERNAL_ERROR.
func (s *Service) SetChoices(ctx context.Context, p core.Principal, on []Kind) ([]Choice, error) {
	if err := personOnly(s.Config, p); err != nil {
		return nil, err
	}
	want := map[Kind]bool{}
	for _, k := range on {
		if !k.Valid() {
			return nil, core.Invalid("kinds", "%q is not a kind of email Giftwell sends; choose from the list", core.Clip(string(k), 40))
		}
		want[k] = true
	}
	err := pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		for _, k := range Kinds() {
			if err := setChoice(ctx, db.New(tx), p.WorkspaceID, p.UserID, k, want[k], s.Clock.Now()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, core.AsCoreError(err)
	}
	return s.Choices(ctx, p)
}

// setChoice stores one person's choice for kind k.
func setChoice(ctx context.Context, q *db.Queries, workspaceID, userID string, k Kind, on bool, now time.Time) error {
	if err := q.NotificationChoiceSet(ctx, db.NotificationChoiceSetParams{
		WorkspaceID: workspaceID, UserID: userID, Kind: string(k), Enabled: on, UpdatedAt: now,
	}); err != nil {
		return core.Internal(err)
	}
	return nil
}

// personOnly refuses a key or a connection: what a person gets by email is
// theirs to choose, signed in.
func personOnly(cfg core.Config, p core.Principal) error {
	if p.Via != core.ViaSession || p.UserID == "" {
		return &core.Error{Code: core.CodeHumanApprovalRequired, Message: "only the person, signed in, chooses which emails they get", URL: cfg.SettingsURL()}
	}
	return nil
}
