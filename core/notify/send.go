package notify

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/sql/db"
)

// approver is a person an email may go to.
type approver struct {
	UserID, Email, Name string
}

// approvers are the people of workspaceID who get kind: its owners and
// admins who kept it on (or never turned it off, for a kind on by
// default); for declined_expired, only the campaign's owner ownerID, when
// they chose it.
func approvers(ctx context.Context, q *db.Queries, workspaceID string, kind Kind, ownerID string) ([]approver, error) {
	rows, err := q.NotificationRecipients(ctx, db.NotificationRecipientsParams{Kind: string(kind), WorkspaceID: workspaceID, UserID: ownerID})
	if err != nil {
		return nil, core.Internal(err)
	}
	var out []approver
	for _, r := range rows {
		role := core.Role(r.Role)
		if kind == KindDeclinedExpired {
			if r.UserID != ownerID {
				continue
			}
		} else if !role.Manager() {
			continue
		}
		on := kind.DefaultOn(role)
		if r.Enabled != nil {
			on = *r.Enabled
		}
		if on {
			out = append(out, approver{UserID: r.UserID, Email: r.Email, Name: r.Name})
		}
	}
	return out, nil
}

// message is an email's subject and body, before its footer.
type message struct {
	Subject, Text string
}

// queueTo queues m, in tx, to each of people, each with the footer and
// one-click unsubscribe of kind, and returns how many it queued.
func (s *Service) queueTo(ctx context.Context, tx pgx.Tx, workspaceID string, kind Kind, people []approver, m message) (int, error) {
	for _, who := range people {
		link := s.UnsubscribeURL(Unsubscribe{WorkspaceID: workspaceID, UserID: who.UserID, Kind: kind})
		e := identity.Email{To: who.Email, Subject: m.Subject, Text: m.Text + footer(kind, link, s.Config.SettingsURL())}
		if err := s.Identity.QueueEmail(ctx, tx, workspaceID, e.UnsubscribeHeaders(link)); err != nil {
			return 0, err
		}
	}
	return len(people), nil
}

// lastSent locks, in tx, the record of when an email of args' kind about
// its playbook last went out, and returns that time (the zero time's
// stand-in, 1970, when never).
func lastSent(ctx context.Context, q *db.Queries, args NoticeArgs) (time.Time, error) {
	key := db.NotificationSentClaimParams{WorkspaceID: args.WorkspaceID, CampaignID: args.CampaignID, Kind: string(args.Notice)}
	if err := q.NotificationSentClaim(ctx, key); err != nil {
		return time.Time{}, core.Internal(err)
	}
	last, err := q.NotificationSentLock(ctx, db.NotificationSentLockParams(key))
	if err != nil {
		return time.Time{}, core.Internal(err)
	}
	return last, nil
}

// markSent records, in tx, that an email of args' kind went out at now.
func markSent(ctx context.Context, q *db.Queries, args NoticeArgs, now time.Time) error {
	if err := q.NotificationSentSet(ctx, db.NotificationSentSetParams{
		LastSentAt: now, WorkspaceID: args.WorkspaceID, CampaignID: args.CampaignID, Kind: string(args.Notice),
	}); err != nil {
		return core.Internal(err)
	}
	return nil
}
