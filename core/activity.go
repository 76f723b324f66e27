package core

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/sql/db"
)

// The Activity page answers "who did this?" for a workspace. Preparations
// and approvals are read from the gift trail; every other action an owner
// or a reviewer asks about is recorded here, append-only, in the action's
// own transaction, naming who acted as they were named then
// (docs/decisions/0117-activity.md).

// ActivityKind is one kind of recorded action.
type ActivityKind string

// The kinds of action the Activity page lists. Prepared and approved come
// from the gift trail; the others are recorded by RecordActivity.
const (
	ActivityPrepared           ActivityKind = "prepared"
	ActivityApproved           ActivityKind = "approved"
	ActivitySkipped            ActivityKind = "skipped"
	ActivityUnskipped          ActivityKind = "unskipped"
	ActivityCheckoutPaid       ActivityKind = "checkout_paid"
	ActivityTopupPaid          ActivityKind = "topup_paid"
	ActivityRefunded           ActivityKind = "refunded"
	ActivityLimitsChanged      ActivityKind = "limits_changed"
	ActivityAutoApproveChanged ActivityKind = "auto_approve_changed"
	ActivityKeyCreated         ActivityKind = "key_created"
	ActivityKeyRevoked         ActivityKind = "key_revoked"
	ActivityAppConnected       ActivityKind = "app_connected"
	ActivityAppDisconnected    ActivityKind = "app_disconnected"
)

// ActorKind is who acted: a person, a workspace key, a connected app, the
// auto-approve rule, or Giftwell itself (its staff, or the payment
// processor's word).
type ActorKind string

// The kinds of actor.
const (
	ActorPerson     ActorKind = "person"
	ActorKey        ActorKind = "key"
	ActorConnection ActorKind = "connection"
	ActorRule       ActorKind = "rule"
	ActorGiftwell   ActorKind = "giftwell"
)

// GiftwellActorName names Giftwell when it acted itself.
const GiftwellActorName = "Giftwell"

// ActivityRecord is one action to record in the action's transaction.
// Subject says what it was about in words (a key's or an app's name, the
// limits a change set, where a refund went); it never holds a secret.
type ActivityRecord struct {
	Kind        ActivityKind
	Mode        Mode
	CampaignID  string
	RecipientID string
	SendID      string
	AmountCents int64
	Subject     string
}

// GiftwellPrincipal is the principal of an action Giftwell takes in
// workspaceID itself (staff deciding a refund, a processor's word), for
// RecordActivity.
func GiftwellPrincipal(workspaceID string) Principal {
	return Principal{WorkspaceID: workspaceID}
}

// ActorOf is who p is on the Activity page: its kind and the ID the
// page's filter matches (the key, the connection's grant, or the person).
func ActorOf(p Principal) (ActorKind, string) {
	switch {
	case p.Via == ViaKey && p.CredentialID != "":
		return ActorKey, p.CredentialID
	case p.Via == ViaConnection && p.CredentialID != "":
		return ActorConnection, p.CredentialID
	case p.UserID != "":
		return ActorPerson, p.UserID
	}
	return ActorGiftwell, ""
}

// RecordActivity records act, done by p in p's workspace, in the caller's
// transaction tx, so that it is listed exactly when the action committed.
// p names the actor: a key (by its name, with its owner), a connection (the
// app's name, with the person who connected it), a person, or Giftwell
// (GiftwellPrincipal). It returns INTERNAL_ERROR.
func (a *Kernel) RecordActivity(ctx context.Context, tx pgx.Tx, p Principal, act ActivityRecord) error {
	if p.WorkspaceID == "" || act.Kind == "" {
		return Internal(fmt.Errorf("activity %q without a workspace", act.Kind))
	}
	kind, ref := ActorOf(p)
	mode := act.Mode
	if mode == "" {
		mode = p.Mode
	}
	if mode == "" {
		mode = ModeTest
	}
	err := db.New(tx).ActivityInsert(ctx, db.ActivityInsertParams{
		ID: NewID(PrefixActivity), WorkspaceID: p.WorkspaceID, Kind: string(act.Kind), Mode: string(mode),
		ActorKind: string(kind), ActorRef: ref, UserID: p.UserID, GiftwellName: GiftwellActorName,
		CampaignID: act.CampaignID, RecipientID: act.RecipientID, SendID: act.SendID,
		AmountCents: act.AmountCents, Subject: Clip(act.Subject, 500), CreatedAt: a.Clock.Now(),
	})
	if err != nil {
		return Internal(err)
	}
	return nil
}
