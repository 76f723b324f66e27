package campaign

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// PersonFields are a roster person's stored fields: what a write changes.
// Empty strings are absent; emails are lowercased; profileUrl is
// normalised; state is a two-letter code.
type PersonFields struct {
	Name, Email, Company, Title string
	SourceSystem, ExternalID    string
	ProfileURL, Context         string
	Message, CustomTag          string
	AssetIDs                    []string
	Photo                       *RecipientPhoto
	AdultConfirmed              bool
	Details                     map[string]string
	ImportID, ImportRowID       string
	AddressMode                 gift.AddressMode
	Address, City, State, Zip   string
	Country                     string
}

// person is one roster entry as core handles it.
type Person struct {
	PersonFields
	ID               string
	Position         int
	RepeatApprovedAt *time.Time
	CreatedAt        time.Time
	// Prepared is who added the person (InsertPeople stamps it): the
	// credential that prepared their gift, for the gift's preparedBy.
	Prepared Preparer
	// approval is the stored approval state ("" for people never queued).
	approval ApprovalState
	// approvalReason is why a waiting person waits.
	approvalReason ApprovalReason
}

// approvalOf is a playbook person's approval as the roster shows it: the
// reason only while waiting, the gift once there is one.
func (p Person) approvalOf(sendID string) *PlaybookApproval {
	if p.approval == "" {
		return nil
	}
	a := &PlaybookApproval{State: p.approval, SendID: sendID}
	if p.approval == ApprovalWaiting {
		a.Reason = p.approvalReason
	}
	return a
}

// NewPersonFields are the defaults of a person not yet on the roster.
func NewPersonFields() PersonFields {
	return PersonFields{AddressMode: gift.AddressConfirm, Country: "US"}
}

// same reports whether two records hold the same values (nil and empty
// lists and maps are the same).
func (f PersonFields) Same(g PersonFields) bool {
	norm := func(x PersonFields) PersonFields {
		if len(x.AssetIDs) == 0 {
			x.AssetIDs = nil
		}
		if len(x.Details) == 0 {
			x.Details = nil
		}
		return x
	}
	return reflect.DeepEqual(norm(f), norm(g))
}

// NoteValues are what the person's note placeholders take.
func (f PersonFields) NoteValues() NoteValues {
	return NoteValues{Name: f.Name, Company: f.Company, CustomTag: f.CustomTag}
}

// sourceKey is the person's SourceSystem+externalId identity, or "".
func (f PersonFields) sourceKey() string {
	if f.SourceSystem == "" || f.ExternalID == "" {
		return ""
	}
	return f.SourceSystem + "\x00" + f.ExternalID
}

// DisplayName is how errors and previews name the person.
func (f PersonFields) DisplayName() string {
	switch {
	case f.Name != "":
		return f.Name
	case f.Email != "":
		return f.Email
	case f.ProfileURL != "":
		return f.ProfileURL
	}
	return f.SourceSystem + ":" + f.ExternalID
}

// RecipientRules is what validating a person needs to know about the
// campaign: its gift.
type RecipientRules struct {
	Product *catalog.Product
}

// ApplyRecipient merges the supplied fields of in onto base (a new person's
// defaults or a stored person), normalising each, and validates the result.
// Problems are recorded under path (recipients[2]). An absent field keeps
// base's value; details merge key by key, an empty answer clearing one.
func ApplyRecipient(base PersonFields, in RecipientInput, path string, rules RecipientRules, pr *Problems) PersonFields {
	f := base
	f.AssetIDs = slices.Clone(base.AssetIDs)
	f.Details = maps.Clone(base.Details)

	text := func(name, value string, limit int, printed bool) (string, bool) {
		v := strings.TrimSpace(value)
		if v == "" {
			return "", false
		}
		switch {
		case utf8.RuneCountInString(v) > limit:
			pr.Add(FieldAt(path, name), "must be at most %d characters", limit)
		case printed && core.HasControl(v):
			pr.Add(FieldAt(path, name), "must not contain control characters or line breaks")
		}
		return v, true
	}
	if v, ok := text("name", in.Name, MaxRecipientText, true); ok {
		f.Name = v
	}
	if v, ok := text("company", in.Company, MaxRecipientText, true); ok {
		f.Company = v
	}
	if v, ok := text("title", in.Title, MaxRecipientText, true); ok {
		f.Title = v
	}
	if v, ok := text("customTag", in.CustomTag, MaxCustomTagLength, true); ok {
		f.CustomTag = v
	}
	if v, ok := text("context", in.Context, MaxContextLength, false); ok {
		f.Context = v
	}
	if v, ok := text("sourceSystem", in.SourceSystem, MaxSourceSystemLength, true); ok {
		f.SourceSystem = v
	}
	if v, ok := text("externalId", in.ExternalID, MaxRecipientText, true); ok {
		f.ExternalID = v
	}
	if in.Email != "" {
		e := core.NormalizeEmail(in.Email)
		if problem := core.EmailProblem(e); problem != "" {
			pr.Add(FieldAt(path, "email"), "%s", problem)
		}
		f.Email = e
	}
	if in.ProfileURL != "" {
		u, problem := NormalizeLinkedInProfile(in.ProfileURL)
		if problem != "" {
			pr.Add(FieldAt(path, "profileUrl"), "%s", problem)
		}
		f.ProfileURL = u
	}
	if v := strings.TrimSpace(in.Message); v != "" {
		// A note's problems are the note's (RECIPIENT_MESSAGE_REQUIRED on an add).
		switch n := utf8.RuneCountInString(v); {
		case n > MaxNoteTemplateLength:
			pr.addNote(FieldAt(path, "message"), "must be at most %d characters", MaxNoteTemplateLength)
		default:
			if problem := CheckTemplate(v, NotePlaceholders, core.GiftMessageCharacters); problem != "" {
				pr.addNote(FieldAt(path, "message"), "%s", problem)
			}
		}
		f.Message = v
	}
	if in.AssetIDs != nil {
		f.AssetIDs = checkAssetIDs(in.AssetIDs, FieldAt(path, "assetIds"), pr)
	}
	if in.Photo != nil {
		f.Photo = checkPhoto(*in.Photo, FieldAt(path, "photo"), pr)
	}
	if in.AdultRecipientConfirmed != nil {
		f.AdultConfirmed = *in.AdultRecipientConfirmed
	}
	if in.Details != nil {
		f.Details = applyDetails(f.Details, in.Details, FieldAt(path, "details"), rules.Product, pr)
	}
	if in.ImportID != "" || in.ImportRowID != "" {
		switch {
		case strings.TrimSpace(in.ImportID) == "":
			pr.Add(FieldAt(path, "importId"), "is required with importRowId (both or neither)")
		case strings.TrimSpace(in.ImportRowID) == "":
			pr.Add(FieldAt(path, "importRowId"), "is required with importId (both or neither)")
		}
		f.ImportID, _ = text("importId", in.ImportID, MaxImportIDLength, true)
		f.ImportRowID, _ = text("importRowId", in.ImportRowID, MaxImportIDLength, true)
	}
	applyAddress(&f, in, path, pr)

	// The whole record.
	switch {
	case f.SourceSystem != "" && f.ExternalID == "":
		pr.Add(FieldAt(path, "externalId"), "is required with sourceSystem (together they identify the person)")
	case f.ExternalID != "" && f.SourceSystem == "":
		pr.Add(FieldAt(path, "sourceSystem"), "is required with externalId (together they identify the person)")
	}
	if f.Name == "" && f.ProfileURL == "" && (f.SourceSystem == "" || f.ExternalID == "") {
		pr.Add(path, "needs an identity: a name, a personal profileUrl, or sourceSystem and externalId")
	}
	return f
}

// applyAddress merges the address fields: with addressMode known the
// sender's US address (name, address, city, state, zip) is required; with
// confirm (the default) the recipient confirms it and none may be sent.
func applyAddress(f *PersonFields, in RecipientInput, path string, pr *Problems) {
	if in.AddressMode != "" {
		if in.AddressMode != gift.AddressConfirm && in.AddressMode != gift.AddressKnown {
			pr.Add(FieldAt(path, "addressMode"), "must be one of confirm, known")
			return
		}
		f.AddressMode = in.AddressMode
	}
	if in.Country != "" {
		if strings.ToUpper(strings.TrimSpace(in.Country)) != "US" {
			pr.Add(FieldAt(path, "country"), "must be US; gifts ship to the United States only")
		}
	}
	supplied := strings.TrimSpace(in.Address+in.City+in.State+in.Zip) != ""
	if f.AddressMode == gift.AddressConfirm {
		if supplied {
			pr.Add(FieldAt(path, "addressMode"), "is confirm (the default: the recipient confirms their address); set addressMode known to supply address, city, state and zip")
		}
		f.Address, f.City, f.State, f.Zip = "", "", "", ""
		return
	}
	set := func(name, value string, dst *string) {
		v := strings.TrimSpace(value)
		if v == "" {
			return
		}
		if utf8.RuneCountInString(v) > MaxRecipientText {
			pr.Add(FieldAt(path, name), "must be at most %d characters", MaxRecipientText)
		} else if core.HasControl(v) {
			pr.Add(FieldAt(path, name), "must not contain control characters or line breaks")
		}
		*dst = v
	}
	set("address", in.Address, &f.Address)
	set("city", in.City, &f.City)
	if strings.TrimSpace(in.State) != "" {
		code, ok := NormalizeUSState(in.State)
		if !ok {
			pr.Add(FieldAt(path, "state"), "must be a US state's two-letter code or full name (e.g. TX or Texas)")
		}
		f.State = code
	}
	if strings.TrimSpace(in.Zip) != "" {
		zip, ok := NormalizeZip(in.Zip)
		if !ok {
			pr.Add(FieldAt(path, "zip"), "must be 5 or 9 digits (12345 or 12345-6789)")
		}
		f.Zip = zip
	}
	for _, req := range []struct{ name, value string }{
		{"name", f.Name}, {"address", f.Address}, {"city", f.City}, {"state", f.State}, {"zip", f.Zip},
	} {
		if req.value == "" && !slices.Contains(pr.fields, FieldAt(path, req.name)) {
			pr.Add(FieldAt(path, req.name), "is required with addressMode known")
		}
	}
}

// checkAssetIDs validates artwork asset IDs (the count is checked first,
// as TOO_MANY_ARTWORK_FILES; see tooManyAssets).
func checkAssetIDs(ids []string, path string, pr *Problems) []string {
	out := make([]string, 0, len(ids))
	for i, id := range ids {
		id = strings.TrimSpace(id)
		switch {
		case !strings.HasPrefix(id, core.PrefixAsset) || len(id) == len(core.PrefixAsset) || utf8.RuneCountInString(id) > MaxAssetIDLength || core.HasControl(id):
			pr.Add(fmt.Sprintf("%s[%d]", path, i), "must be an uploaded artwork asset ID (asset_...)")
		case slices.Contains(out, id):
			pr.Add(fmt.Sprintf("%s[%d]", path, i), "repeats %s", id)
		}
		out = append(out, id)
	}
	return out
}

// tooManyAssets is TOO_MANY_ARTWORK_FILES for the first person of items
// with more than MaxAssetIDs assets, or nil.
func tooManyAssets(items []RecipientInput) error {
	for i, in := range items {
		if len(in.AssetIDs) > MaxAssetIDs {
			return core.FieldError(core.CodeTooManyArtworkFiles, fmt.Sprintf("recipients[%d].assetIds", i),
				"has %d artwork files; a person takes at most %d", len(in.AssetIDs), MaxAssetIDs)
		}
	}
	return nil
}

// checkPhoto validates a photo by its source.
func checkPhoto(p RecipientPhoto, path string, pr *Problems) *RecipientPhoto {
	out := RecipientPhoto{Source: p.Source}
	switch p.Source {
	case PhotoUpload:
		id := strings.TrimSpace(p.AssetID)
		if !strings.HasPrefix(id, core.PrefixAsset) || len(id) == len(core.PrefixAsset) || core.HasControl(id) {
			pr.Add(FieldAt(path, "assetId"), "is required with source upload: an uploaded photo's asset ID (asset_...)")
		}
		if p.ProfileURL != "" {
			pr.Add(FieldAt(path, "profileUrl"), "is only for source linkedin")
		}
		out.AssetID = id
	case PhotoLinkedIn:
		if strings.TrimSpace(p.ProfileURL) == "" {
			pr.Add(FieldAt(path, "profileUrl"), "is required with source linkedin")
		} else {
			u, problem := NormalizeLinkedInProfile(p.ProfileURL)
			if problem != "" {
				pr.Add(FieldAt(path, "profileUrl"), "%s", problem)
			}
			out.ProfileURL = u
		}
		if p.AssetID != "" {
			pr.Add(FieldAt(path, "assetId"), "is only for source upload")
		}
	default:
		pr.Add(FieldAt(path, "source"), "must be one of upload, linkedin")
	}
	return &out
}

// applyDetails merges answers into have, checking each key against the
// gift's recipientDetails: its kind and maxLength. An empty answer clears.
func applyDetails(have, in map[string]string, path string, product *catalog.Product, pr *Problems) map[string]string {
	out := maps.Clone(have)
	if out == nil {
		out = map[string]string{}
	}
	keys := slices.Sorted(maps.Keys(in))
	for _, k := range keys {
		field := FieldAt(path, k)
		var spec *catalog.DetailField
		if product != nil {
			for i := range product.RecipientDetails {
				if product.RecipientDetails[i].Key == k {
					spec = &product.RecipientDetails[i]
				}
			}
		}
		if spec == nil {
			pr.Add(field, "is not a detail this gift asks for%s", detailKeysHint(product))
			continue
		}
		v := strings.TrimSpace(in[k])
		if v == "" {
			delete(out, k)
			continue
		}
		switch {
		case spec.MaxLength > 0 && utf8.RuneCountInString(v) > spec.MaxLength:
			pr.Add(field, "must be at most %d characters", spec.MaxLength)
		case spec.Kind == catalog.DetailURL && !httpURL(v):
			pr.Add(field, "must be an http or https URL")
		case spec.Kind != catalog.DetailURL && core.HasControl(v):
			pr.Add(field, "must not contain control characters or line breaks")
		}
		out[k] = v
	}
	return out
}

func detailKeysHint(p *catalog.Product) string {
	if p == nil {
		return ""
	}
	var keys []string
	for _, d := range p.RecipientDetails {
		keys = append(keys, d.Key)
	}
	if len(keys) == 0 {
		return " (it asks for none)"
	}
	return " (it asks for " + strings.Join(keys, ", ") + ")"
}

// httpURL reports whether s is an absolute http or https URL with a host.
func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !core.HasControl(s) && !strings.ContainsAny(s, " ")
}

// PersonFromRow maps a stored roster row.
func PersonFromRow(r db.Recipient) (Person, error) {
	p := Person{ID: r.ID, Position: int(r.Position), RepeatApprovedAt: r.RepeatApprovedAt, CreatedAt: r.CreatedAt,
		approval: ApprovalState(r.ApprovalState), approvalReason: ApprovalReason(r.ApprovalReason),
		Prepared: Preparer{Via: core.Via(r.PreparedVia), CredentialID: r.PreparedCredential, UserID: r.PreparedUser}}
	p.PersonFields = PersonFields{
		Name: r.Name, Email: r.Email, Company: r.Company, Title: r.Title,
		SourceSystem: r.SourceSystem, ExternalID: r.ExternalID, ProfileURL: r.ProfileUrl, Context: r.Context,
		Message: r.Message, CustomTag: r.CustomTag, AssetIDs: r.AssetIds, AdultConfirmed: r.AdultRecipientConfirmed,
		ImportID: r.ImportID, ImportRowID: r.ImportRowID, AddressMode: gift.AddressMode(r.AddressMode),
		Address: r.Address, City: r.City, State: r.State, Zip: r.Zip, Country: r.Country,
	}
	if len(r.Photo) > 0 {
		p.Photo = &RecipientPhoto{}
		if err := json.Unmarshal(r.Photo, p.Photo); err != nil {
			return Person{}, fmt.Errorf("recipient %s: photo: %w", r.ID, err)
		}
	}
	if err := json.Unmarshal(r.Details, &p.Details); err != nil {
		return Person{}, fmt.Errorf("recipient %s: details: %w", r.ID, err)
	}
	return p, nil
}

// storedJSON is what the photo and details columns hold.
func (f PersonFields) storedJSON() (photo, details []byte, err error) {
	if f.Photo != nil {
		if photo, err = json.Marshal(f.Photo); err != nil {
			return nil, nil, err
		}
	}
	d := f.Details
	if d == nil {
		d = map[string]string{}
	}
	details, err = json.Marshal(d)
	return photo, details, err
}

// insertParams are the row of a new person.
func (p Person) insertParams(workspaceID, campaignID string, now time.Time) (db.RecipientInsertManyParams, error) {
	photo, details, err := p.storedJSON()
	if err != nil {
		return db.RecipientInsertManyParams{}, err
	}
	assets := p.AssetIDs
	if assets == nil {
		assets = []string{}
	}
	return db.RecipientInsertManyParams{
		ID: p.ID, WorkspaceID: workspaceID, CampaignID: campaignID, Position: int32(p.Position),
		Name: p.Name, Email: p.Email, Company: p.Company, Title: p.Title,
		SourceSystem: p.SourceSystem, ExternalID: p.ExternalID, ProfileUrl: p.ProfileURL, Context: p.Context,
		Message: p.Message, CustomTag: p.CustomTag, AssetIds: assets, Photo: photo,
		AdultRecipientConfirmed: p.AdultConfirmed, Details: details, ImportID: p.ImportID, ImportRowID: p.ImportRowID,
		AddressMode: string(p.AddressMode), Address: p.Address, City: p.City, State: p.State, Zip: p.Zip,
		Country: p.Country, CreatedAt: now, UpdatedAt: now,
		PreparedVia: string(p.Prepared.Via), PreparedCredential: p.Prepared.CredentialID, PreparedUser: p.Prepared.UserID,
	}, nil
}

// Preparer is the credential that added a person: a workspace key, a
// connection's grant, or a person's sign-in session, with its person.
type Preparer struct {
	Via          core.Via
	CredentialID string
	UserID       string
	// Names are the credential's names as read when p was authenticated
	// (PreparerOf), nil for a person read from storage: a gift's trail
	// then reads them.
	Names *core.CredentialNames
}

// PreparerOf is who p is, as a person's Prepared records it.
func PreparerOf(p core.Principal) Preparer {
	return Preparer{Via: p.Via, CredentialID: p.CredentialID, UserID: p.UserID, Names: p.Names}
}

// UpdateParams rewrite a stored person.
func (p Person) UpdateParams(campaignID string, now time.Time) (db.RecipientUpdateParams, error) {
	ins, err := p.insertParams("", campaignID, now)
	if err != nil {
		return db.RecipientUpdateParams{}, err
	}
	return db.RecipientUpdateParams{
		Name: ins.Name, Email: ins.Email, Company: ins.Company, Title: ins.Title,
		SourceSystem: ins.SourceSystem, ExternalID: ins.ExternalID, ProfileUrl: ins.ProfileUrl, Context: ins.Context,
		Message: ins.Message, CustomTag: ins.CustomTag, AssetIds: ins.AssetIds, Photo: ins.Photo,
		AdultRecipientConfirmed: ins.AdultRecipientConfirmed, Details: ins.Details, ImportID: ins.ImportID,
		ImportRowID: ins.ImportRowID, AddressMode: ins.AddressMode, Address: ins.Address, City: ins.City,
		State: ins.State, Zip: ins.Zip, Country: ins.Country, UpdatedAt: now, CampaignID: campaignID, ID: p.ID,
	}, nil
}

// record is the person as reads return them, with their note resolved
// against the campaign's shared message.
func (p Person) record(sharedMessage, sendID string) Recipient {
	note := PersonNote(sharedMessage, p.Message, p.NoteValues())
	var details map[string]string
	if len(p.Details) > 0 {
		details = p.Details
	}
	var assets []string
	if len(p.AssetIDs) > 0 {
		assets = p.AssetIDs
	}
	return Recipient{
		RecipientID: p.ID, Name: p.Name, Email: p.Email, Company: p.Company, Title: p.Title,
		SourceSystem: p.SourceSystem, ExternalID: p.ExternalID, ProfileURL: p.ProfileURL, Context: p.Context,
		Message: p.Message, CustomTag: p.CustomTag, AssetIDs: assets, Photo: p.Photo,
		AdultRecipientConfirmed: p.AdultConfirmed, Details: details, ImportID: p.ImportID, ImportRowID: p.ImportRowID,
		AddressMode: p.AddressMode, Address: p.Address, City: p.City, State: p.State, Zip: p.Zip, Country: p.Country,
		ResolvedMessage: note.Resolved, NoteProblem: note.problem, SendID: sendID,
		RepeatApproved: p.RepeatApprovedAt != nil, CreatedAt: p.CreatedAt,
	}
}

// NormalizeRecipient validates in as a new person for a campaign of
// product (nil: the gift's rules are skipped) and returns them as the
// roster would hold them, without storing anything: emails lowercased,
// profileUrl normalised, state as its code, zip as 12345 or 12345-6789.
// Problems are VALIDATION_ERROR (or TOO_MANY_ARTWORK_FILES) naming fields
// under path (recipients[3].zip).
func NormalizeRecipient(in RecipientInput, product *catalog.Product, path string) (Recipient, error) {
	if len(in.AssetIDs) > MaxAssetIDs {
		return Recipient{}, core.FieldError(core.CodeTooManyArtworkFiles, FieldAt(path, "assetIds"), "has %d artwork files; a person takes at most %d", len(in.AssetIDs), MaxAssetIDs)
	}
	var pr Problems
	f := ApplyRecipient(NewPersonFields(), in, path, RecipientRules{Product: product}, &pr)
	if err := pr.Err(); err != nil {
		return Recipient{}, err
	}
	return Person{PersonFields: f}.record("", ""), nil
}
