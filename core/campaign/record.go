package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// Settings is a campaign's settable fields, as stored.
type Settings struct {
	Mode               CampaignMode
	Status             CampaignStatus
	Name               string
	Description        string
	ProductID          string
	BudgetCents        int64
	PerPersonCents     int64
	MaxSends           int
	MonthlyBudgetCents *int64
	SenderName         string
	SenderCompany      string
	Message            string
	MeetingURL         string
	RecipientSource    RecipientSource
	Customization      map[string]string
	Attribution        gift.Attribution
}

// Record is a stored campaign.
type Record struct {
	Settings
	ID            string
	WorkspaceID   string
	PolicyVersion int64
	AutoApprove   *AutoApprove
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// clone copies the state so that a change to the copy's maps leaves s alone.
func (s Settings) Clone() Settings {
	c := s
	c.Customization = maps.Clone(s.Customization)
	c.Attribution.Metadata = maps.Clone(s.Attribution.Metadata)
	if s.MonthlyBudgetCents != nil {
		v := *s.MonthlyBudgetCents
		c.MonthlyBudgetCents = &v
	}
	return c
}

func RecordFromRow(r db.Campaign) (Record, error) {
	c := Record{
		ID: r.ID, WorkspaceID: r.WorkspaceID, PolicyVersion: r.PolicyVersion, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		Settings: Settings{
			Mode: CampaignMode(r.Mode), Status: CampaignStatus(r.Status), Name: r.Name, Description: r.Description,
			ProductID: r.ProductID, BudgetCents: r.BudgetCents, PerPersonCents: r.PerPersonCents, MaxSends: int(r.MaxSends),
			MonthlyBudgetCents: r.MonthlyBudgetCents, SenderName: r.SenderName, SenderCompany: r.SenderCompany,
			Message: r.Message, MeetingURL: r.MeetingUrl, RecipientSource: RecipientSource(r.RecipientSource),
		},
	}
	if err := json.Unmarshal(r.Customization, &c.Customization); err != nil {
		return Record{}, fmt.Errorf("campaign %s: customization: %w", r.ID, err)
	}
	if err := json.Unmarshal(r.Attribution, &c.Attribution); err != nil {
		return Record{}, fmt.Errorf("campaign %s: attribution: %w", r.ID, err)
	}
	if len(r.AutoApprove) > 0 {
		c.AutoApprove = &AutoApprove{}
		if err := json.Unmarshal(r.AutoApprove, c.AutoApprove); err != nil {
			return Record{}, fmt.Errorf("campaign %s: autoApprove: %w", r.ID, err)
		}
	}
	if c.Customization == nil {
		c.Customization = map[string]string{}
	}
	return c, nil
}

// storedJSON is what the customization and attribution columns hold.
func (s Settings) storedJSON() (customization, attribution []byte, err error) {
	cust := s.Customization
	if cust == nil {
		cust = map[string]string{}
	}
	if customization, err = json.Marshal(cust); err != nil {
		return nil, nil, err
	}
	attribution, err = json.Marshal(s.Attribution)
	return customization, attribution, err
}

// commitments is what a campaign has committed: gifts that are not
// cancelled or declined.
type commitments struct {
	SentCount  int
	SpentCents int64
	// MonthCents is the part created in the current UTC calendar month.
	MonthCents int64
}

// Roster is a campaign's roster with each person's gift.
type Roster struct {
	People []Person
	// sendOf maps a recipient ID to their gift's ID.
	SendOf map[string]string
}

// owed is the people of the roster owed a gift, in roster order: those
// without a gift whom nobody skipped.
func (r Roster) Owed() []Person {
	var out []Person
	for _, p := range r.People {
		if r.SendOf[p.ID] == "" && p.approval != ApprovalSkipped {
			out = append(out, p)
		}
	}
	return out
}

// LoadRoster reads the roster and which people have gifts.
func LoadRoster(ctx context.Context, q *db.Queries, campaignID string) (Roster, error) {
	rows, err := q.RecipientListByCampaign(ctx, campaignID)
	if err != nil {
		return Roster{}, core.Internal(err)
	}
	v := Roster{People: make([]Person, 0, len(rows)), SendOf: map[string]string{}}
	for _, r := range rows {
		p, err := PersonFromRow(r)
		if err != nil {
			return Roster{}, core.Internal(err)
		}
		v.People = append(v.People, p)
	}
	sends, err := q.SendListByCampaign(ctx, campaignID)
	if err != nil {
		return Roster{}, core.Internal(err)
	}
	for _, s := range sends {
		if _, ok := v.SendOf[s.RecipientID]; !ok {
			v.SendOf[s.RecipientID] = s.ID
		}
	}
	return v, nil
}

// LoadCommitments reads what the campaign has committed.
func (a *Service) LoadCommitments(ctx context.Context, q *db.Queries, campaignID string) (commitments, error) {
	now := a.Clock.Now()
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	row, err := q.SendCommitmentsByCampaign(ctx, db.SendCommitmentsByCampaignParams{CampaignID: campaignID, MonthStart: month})
	if err != nil {
		return commitments{}, core.Internal(err)
	}
	return commitments{SentCount: int(row.SentCount), SpentCents: row.SpentCents, MonthCents: row.MonthCents}, nil
}

// campaignOut is the Campaign reads and writes return. With roster nil the
// recipients are left out (lists); people is the roster count then.
func (a *Service) campaignOut(c Record, roster *Roster, people int, com commitments) Campaign {
	out := Campaign{
		ID: c.ID, Name: c.Name, Description: c.Description, Mode: c.Mode, Status: c.Status, ProductID: c.ProductID,
		BudgetCents: c.BudgetCents, PerPersonCents: c.PerPersonCents, MaxSends: c.MaxSends,
		SpentCents: com.SpentCents, SentCount: com.SentCount, MonthlyBudgetCents: c.MonthlyBudgetCents,
		SenderName: c.SenderName, SenderCompany: c.SenderCompany, Message: c.Message, MeetingURL: c.MeetingURL,
		RecipientSource: c.RecipientSource, RecipientCount: people, Customization: c.Customization,
		Attribution: c.Attribution, PolicyVersion: c.PolicyVersion, RequiresPayment: !c.Mode.Playbook(),
		ReviewURL: a.Config.ReviewURL(c.ID), AutoApprove: c.AutoApprove, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
	}
	if out.Customization == nil {
		out.Customization = map[string]string{}
	}
	if roster != nil {
		out.RecipientCount = len(roster.People)
		out.Recipients = make([]Recipient, 0, len(roster.People))
		for _, p := range roster.People {
			rec := p.record(c.Message, roster.SendOf[p.ID])
			if c.Mode.Playbook() {
				rec.Approval = p.approvalOf(rec.SendID)
			}
			out.Recipients = append(out.Recipients, rec)
		}
	}
	return out
}

// CampaignTx reads one campaign of the workspace with its roster on q (a
// pool or a transaction). NOT_FOUND names id.
func (a *Service) CampaignTx(ctx context.Context, q *db.Queries, workspaceID, id string) (Campaign, error) {
	row, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: workspaceID, ID: id})
	if core.IsNoRows(err) {
		return Campaign{}, NotFound(id)
	}
	if err != nil {
		return Campaign{}, core.Internal(err)
	}
	c, err := RecordFromRow(row)
	if err != nil {
		return Campaign{}, core.Internal(err)
	}
	roster, err := LoadRoster(ctx, q, id)
	if err != nil {
		return Campaign{}, err
	}
	com, err := a.LoadCommitments(ctx, q, id)
	if err != nil {
		return Campaign{}, err
	}
	return a.campaignOut(c, &roster, 0, com), nil
}

// LockRecord reads and locks a campaign for a write transaction.
func LockRecord(ctx context.Context, q *db.Queries, workspaceID, id string) (Record, error) {
	row, err := q.CampaignGetForUpdate(ctx, db.CampaignGetForUpdateParams{WorkspaceID: workspaceID, ID: id})
	if core.IsNoRows(err) {
		return Record{}, NotFound(id)
	}
	if err != nil {
		return Record{}, core.Internal(err)
	}
	c, err := RecordFromRow(row)
	if err != nil {
		return Record{}, core.Internal(err)
	}
	return c, nil
}

// NotFound is NOT_FOUND naming id.
func NotFound(id string) *core.Error {
	return core.FieldError(core.CodeNotFound, "id", "no campaign %s in this workspace; list_campaigns shows its campaigns", core.Clip(id, 60))
}

// writeCampaign stores next over c with a compare-and-swap on c's version,
// setting the version to version. POLICY_CHANGED when c's version moved.
func writeCampaign(ctx context.Context, q *db.Queries, c Record, next Settings, version int64, now time.Time) error {
	cust, attr, err := next.storedJSON()
	if err != nil {
		return core.Internal(err)
	}
	n, err := q.CampaignUpdate(ctx, db.CampaignUpdateParams{
		Mode: string(next.Mode), Status: string(next.Status), Name: next.Name, Description: next.Description,
		ProductID: next.ProductID, BudgetCents: next.BudgetCents, PerPersonCents: next.PerPersonCents,
		MaxSends: int32(next.MaxSends), MonthlyBudgetCents: next.MonthlyBudgetCents, SenderName: next.SenderName,
		SenderCompany: next.SenderCompany, Message: next.Message, MeetingUrl: next.MeetingURL,
		RecipientSource: string(next.RecipientSource), Customization: cust, Attribution: attr,
		NewPolicyVersion: version, UpdatedAt: now, WorkspaceID: c.WorkspaceID, ID: c.ID,
		ExpectedPolicyVersion: c.PolicyVersion,
	})
	if err != nil {
		return core.Internal(err)
	}
	if n == 0 {
		return PolicyChanged(c.PolicyVersion)
	}
	return nil
}

// PolicyChanged is POLICY_CHANGED naming expectedPolicyVersion.
func PolicyChanged(current int64) *core.Error {
	return core.FieldError(core.CodePolicyChanged, "expectedPolicyVersion",
		"is stale: the campaign is at policyVersion %d; read it again, then retry with that version", current)
}

// InsertQueued stores one new person p of an active playbook, added by
// who, already in queue state with reason: one INSERT (a plain write, so
// it rides with the add's next statement in a pipeline; a unique violation
// is then that statement's error, which the add's identity locks keep
// from happening). p records who added them (Person.Prepared, set on p).
func InsertQueued(ctx context.Context, q *db.Queries, who core.Principal, campaignID string, p *Person, now time.Time, state ApprovalState, reason ApprovalReason) error {
	p.Prepared = PreparerOf(who)
	r, err := p.insertParams(who.WorkspaceID, campaignID, now)
	if err != nil {
		return core.Internal(err)
	}
	if err := q.RecipientInsertQueued(ctx, db.RecipientInsertQueuedParams{
		ID: r.ID, WorkspaceID: r.WorkspaceID, CampaignID: r.CampaignID, Position: r.Position, Name: r.Name,
		Email: r.Email, Company: r.Company, Title: r.Title, SourceSystem: r.SourceSystem, ExternalID: r.ExternalID,
		ProfileUrl: r.ProfileUrl, Context: r.Context, Message: r.Message, CustomTag: r.CustomTag, AssetIds: r.AssetIds,
		Photo: r.Photo, AdultRecipientConfirmed: r.AdultRecipientConfirmed, Details: r.Details, ImportID: r.ImportID,
		ImportRowID: r.ImportRowID, AddressMode: r.AddressMode, Address: r.Address, City: r.City, State: r.State,
		Zip: r.Zip, Country: r.Country, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, PreparedVia: r.PreparedVia,
		PreparedCredential: r.PreparedCredential, PreparedUser: r.PreparedUser,
		ApprovalState: string(state), ApprovalReason: string(reason),
	}); err != nil {
		if _, unique := core.ViolatedUnique(err); unique {
			return core.Errorf(core.CodeInvalidRequestState, "recipients: someone else added the same person at the same time; read the campaign and retry")
		}
		return core.Internal(err)
	}
	return nil
}

// InsertPeople stores new people, added by who, in one COPY: each records
// who added them (Person.Prepared, set on people too), for their gift's
// preparedBy. They start waiting with no reason; the caller settles their
// queue state.
func InsertPeople(ctx context.Context, q *db.Queries, who core.Principal, campaignID string, people []Person, now time.Time) error {
	if len(people) == 0 {
		return nil
	}
	rows := make([]db.RecipientInsertManyParams, 0, len(people))
	for i := range people {
		people[i].Prepared = PreparerOf(who)
		r, err := people[i].insertParams(who.WorkspaceID, campaignID, now)
		if err != nil {
			return core.Internal(err)
		}
		rows = append(rows, r)
	}
	if _, err := q.RecipientInsertMany(ctx, rows); err != nil {
		if _, unique := core.ViolatedUnique(err); unique {
			return core.Errorf(core.CodeInvalidRequestState, "recipients: someone else added the same person at the same time; read the campaign and retry")
		}
		return core.Internal(err)
	}
	return nil
}
