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

// personFields are a roster person's stored fields: what a write changes.
// Empty strings are absent; emails are lowercased; profileUrl is
// normalised; state is a two-letter code.
type personFields struct {
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
type person struct {
	personFields
	id               string
	position         int
	repeatApprovedAt *time.Time
	createdAt        time.Time
	// approval is the stored approval state ("" for people never queued).
	approval ApprovalState
	// approvalReason is why a waiting person waits.
	approvalReason ApprovalReason
}

// approvalOf is a playbook person's approval as the roster shows it: the
// reason only while waiting, the gift once there is one.
func (p person) approvalOf(sendID string) *PlaybookApproval {
	if p.approval == "" {
		return nil
	}
	a := &PlaybookApproval{State: p.approval, SendID: sendID}
	if p.approval == ApprovalWaiting {
		a.Reason = p.approvalReason
	}
	return a
}

// newPersonFields are the defaults of a person not yet on the roster.
func newPersonFields() personFields {
	return personFields{AddressMode: gift.AddressConfirm, Country: "US"}
}

// same reports whether two records hold the same values (nil and empty
// lists and maps are the same).
func (f personFields) same(g personFields) bool {
	norm := func(x personFields) personFields {
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

// noteValues are what the person's note placeholders take.
func (f personFields) noteValues() NoteValues {
	return NoteValues{Name: f.Name, Company: f.Company, CustomTag: f.CustomTag}
}

// sourceKey is the person's sourceSystem+externalId identity, or "".
func (f personFields) sourceKey() string {
	if f.SourceSystem == "" || f.ExternalID == "" {
		return ""
	}
	return f.SourceSystem + "\x00" + f.ExternalID
}

// displayName is how errors and previews name the person.
func (f personFields) displayName() string {
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

// recipientRules is what validating a person needs to know about the
// campaign: its gift.
type recipientRules struct {
	product *catalog.Product
}

// applyRecipient merges the supplied fields of in onto base (a new person's
// defaults or a stored person), normalising each, and validates the result.
// Problems are recorded under path (recipients[2]). An absent field keeps
// base's value; details merge key by key, an empty answer clearing one.
func applyRecipient(base personFields, in RecipientInput, path string, rules recipientRules, pr *problems) personFields {
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
			pr.add(at(path, name), "must be at most %d characters", limit)
		case printed && core.HasControl(v):
			pr.add(at(path, name), "must not contain control characters or line breaks")
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
		if err := core.CheckEmail(at(path, "email"), e); err != nil {
			pr.add(at(path, "email"), "must be a plain email address like name@example.com")
		}
		f.Email = e
	}
	if in.ProfileURL != "" {
		u, problem := NormalizeLinkedInProfile(in.ProfileURL)
		if problem != "" {
			pr.add(at(path, "profileUrl"), "%s", problem)
		}
		f.ProfileURL = u
	}
	if v := strings.TrimSpace(in.Message); v != "" {
		// A note's problems are the note's (RECIPIENT_MESSAGE_REQUIRED on an add).
		switch n := utf8.RuneCountInString(v); {
		case n > MaxNoteTemplateLength:
			pr.addNote(at(path, "message"), "must be at most %d characters", MaxNoteTemplateLength)
		default:
			if problem := CheckTemplate(v, NotePlaceholders, core.GiftMessageCharacters); problem != "" {
				pr.addNote(at(path, "message"), "%s", problem)
			}
		}
		f.Message = v
	}
	if in.AssetIDs != nil {
		f.AssetIDs = checkAssetIDs(in.AssetIDs, at(path, "assetIds"), pr)
	}
	if in.Photo != nil {
		f.Photo = checkPhoto(*in.Photo, at(path, "photo"), pr)
	}
	if in.AdultRecipientConfirmed != nil {
		f.AdultConfirmed = *in.AdultRecipientConfirmed
	}
	if in.Details != nil {
		f.Details = applyDetails(f.Details, in.Details, at(path, "details"), rules.product, pr)
	}
	if in.ImportID != "" || in.ImportRowID != "" {
		switch {
		case strings.TrimSpace(in.ImportID) == "":
			pr.add(at(path, "importId"), "is required with importRowId (both or neither)")
		case strings.TrimSpace(in.ImportRowID) == "":
			pr.add(at(path, "importRowId"), "is required with importId (both or neither)")
		}
		f.ImportID, _ = text("importId", in.ImportID, MaxImportIDLength, true)
		f.ImportRowID, _ = text("importRowId", in.ImportRowID, MaxImportIDLength, true)
	}
	applyAddress(&f, in, path, pr)

	// The whole record.
	switch {
	case f.SourceSystem != "" && f.ExternalID == "":
		pr.add(at(path, "externalId"), "is required with sourceSystem (together they identify the person)")
	case f.ExternalID != "" && f.SourceSystem == "":
		pr.add(at(path, "sourceSystem"), "is required with externalId (together they identify the person)")
	}
	if f.Name == "" && f.ProfileURL == "" && (f.SourceSystem == "" || f.ExternalID == "") {
		pr.add(path, "needs an identity: a name, a personal profileUrl, or sourceSystem and externalId")
	}
	return f
}

// applyAddress merges the address fields: with addressMode known the
// sender's US address (name, address, city, state, zip) is required; with
// confirm (the default) the recipient confirms it and none may be sent.
func applyAddress(f *personFields, in RecipientInput, path string, pr *problems) {
	if in.AddressMode != "" {
		if in.AddressMode != gift.AddressConfirm && in.AddressMode != gift.AddressKnown {
			pr.add(at(path, "addressMode"), "must be one of confirm, known")
			return
		}
		f.AddressMode = in.AddressMode
	}
	if in.Country != "" {
		if strings.ToUpper(strings.TrimSpace(in.Country)) != "US" {
			pr.add(at(path, "country"), "must be US; gifts ship to the United States only")
		}
	}
	supplied := strings.TrimSpace(in.Address+in.City+in.State+in.Zip) != ""
	if f.AddressMode == gift.AddressConfirm {
		if supplied {
			pr.add(at(path, "addressMode"), "is confirm (the default: the recipient confirms their address); set addressMode known to supply address, city, state and zip")
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
			pr.add(at(path, name), "must be at most %d characters", MaxRecipientText)
		} else if core.HasControl(v) {
			pr.add(at(path, name), "must not contain control characters or line breaks")
		}
		*dst = v
	}
	set("address", in.Address, &f.Address)
	set("city", in.City, &f.City)
	if strings.TrimSpace(in.State) != "" {
		code, ok := NormalizeUSState(in.State)
		if !ok {
			pr.add(at(path, "state"), "must be a US state's two-letter code or full name (e.g. TX or Texas)")
		}
		f.State = code
	}
	if strings.TrimSpace(in.Zip) != "" {
		zip, ok := NormalizeZip(in.Zip)
		if !ok {
			pr.add(at(path, "zip"), "must be 5 or 9 digits (12345 or 12345-6789)")
		}
		f.Zip = zip
	}
	for _, req := range []struct{ name, value string }{
		{"name", f.Name}, {"address", f.Address}, {"city", f.City}, {"state", f.State}, {"zip", f.Zip},
	} {
		if req.value == "" && !slices.Contains(pr.fields, at(path, req.name)) {
			pr.add(at(path, req.name), "is required with addressMode known")
		}
	}
}

// checkAssetIDs validates artwork asset IDs (the count is checked first,
// as TOO_MANY_ARTWORK_FILES; see tooManyAssets).
func checkAssetIDs(ids []string, path string, pr *problems) []string {
	out := make([]string, 0, len(ids))
	for i, id := range ids {
		id = strings.TrimSpace(id)
		switch {
		case !strings.HasPrefix(id, core.PrefixAsset) || len(id) == len(core.PrefixAsset) || utf8.RuneCountInString(id) > MaxAssetIDLength || core.HasControl(id):
			pr.add(fmt.Sprintf("%s[%d]", path, i), "must be an uploaded artwork asset ID (asset_...)")
		case slices.Contains(out, id):
			pr.add(fmt.Sprintf("%s[%d]", path, i), "repeats %s", id)
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
func checkPhoto(p RecipientPhoto, path string, pr *problems) *RecipientPhoto {
	out := RecipientPhoto{Source: p.Source}
	switch p.Source {
	case PhotoUpload:
		id := strings.TrimSpace(p.AssetID)
		if !strings.HasPrefix(id, core.PrefixAsset) || len(id) == len(core.PrefixAsset) || core.HasControl(id) {
			pr.add(at(path, "assetId"), "is required with source upload: an uploaded photo's asset ID (asset_...)")
		}
		if p.ProfileURL != "" {
			pr.add(at(path, "profileUrl"), "is only for source linkedin")
		}
		out.AssetID = id
	case PhotoLinkedIn:
		if strings.TrimSpace(p.ProfileURL) == "" {
			pr.add(at(path, "profileUrl"), "is required with source linkedin")
		} else {
			u, problem := NormalizeLinkedInProfile(p.ProfileURL)
			if problem != "" {
				pr.add(at(path, "profileUrl"), "%s", problem)
			}
			out.ProfileURL = u
		}
		if p.AssetID != "" {
			pr.add(at(path, "assetId"), "is only for source upload")
		}
	default:
		pr.add(at(path, "source"), "must be one of upload, linkedin")
	}
	return &out
}

// applyDetails merges answers into have, checking each key against the
// gift's recipientDetails: its kind and maxLength. An empty answer clears.
func applyDetails(have, in map[string]string, path string, product *catalog.Product, pr *problems) map[string]string {
	out := maps.Clone(have)
	if out == nil {
		out = map[string]string{}
	}
	keys := slices.Sorted(maps.Keys(in))
	for _, k := range keys {
		field := at(path, k)
		var spec *catalog.DetailField
		if product != nil {
			for i := range product.RecipientDetails {
				if product.RecipientDetails[i].Key == k {
					spec = &product.RecipientDetails[i]
				}
			}
		}
		if spec == nil {
			pr.add(field, "is not a detail this gift asks for%s", detailKeysHint(product))
			continue
		}
		v := strings.TrimSpace(in[k])
		if v == "" {
			delete(out, k)
			continue
		}
		switch {
		case spec.MaxLength > 0 && utf8.RuneCountInString(v) > spec.MaxLength:
			pr.add(field, "must be at most %d characters", spec.MaxLength)
		case spec.Kind == catalog.DetailURL && !httpURL(v):
			pr.add(field, "must be an http or https URL")
		case spec.Kind != catalog.DetailURL && core.HasControl(v):
			pr.add(field, "must not contain control characters or line breaks")
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

// personFromRow maps a stored roster row.
func personFromRow(r db.Recipient) (person, error) {
	p := person{id: r.ID, position: int(r.Position), repeatApprovedAt: r.RepeatApprovedAt, createdAt: r.CreatedAt,
		approval: ApprovalState(r.ApprovalState), approvalReason: ApprovalReason(r.ApprovalReason)}
	p.personFields = personFields{
		Name: r.Name, Email: r.Email, Company: r.Company, Title: r.Title,
		SourceSystem: r.SourceSystem, ExternalID: r.ExternalID, ProfileURL: r.ProfileUrl, Context: r.Context,
		Message: r.Message, CustomTag: r.CustomTag, AssetIDs: r.AssetIds, AdultConfirmed: r.AdultRecipientConfirmed,
		ImportID: r.ImportID, ImportRowID: r.ImportRowID, AddressMode: gift.AddressMode(r.AddressMode),
		Address: r.Address, City: r.City, State: r.State, Zip: r.Zip, Country: r.Country,
	}
	if len(r.Photo) > 0 {
		p.Photo = &RecipientPhoto{}
		if err := json.Unmarshal(r.Photo, p.Photo); err != nil {
			return person{}, fmt.Errorf("recipient %s: photo: %w", r.ID, err)
		}
	}
	if err := json.Unmarshal(r.Details, &p.Details); err != nil {
		return person{}, fmt.Errorf("recipient %s: details: %w", r.ID, err)
	}
	return p, nil
}

// storedJSON is what the photo and details columns hold.
func (f personFields) storedJSON() (photo, details []byte, err error) {
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
func (p person) insertParams(workspaceID, campaignID string, now time.Time) (db.RecipientInsertManyParams, error) {
	photo, details, err := p.storedJSON()
	if err != nil {
		return db.RecipientInsertManyParams{}, err
	}
	assets := p.AssetIDs
	if assets == nil {
		assets = []string{}
	}
	return db.RecipientInsertManyParams{
		ID: p.id, WorkspaceID: workspaceID, CampaignID: campaignID, Position: int32(p.position),
		Name: p.Name, Email: p.Email, Company: p.Company, Title: p.Title,
		SourceSystem: p.SourceSystem, ExternalID: p.ExternalID, ProfileUrl: p.ProfileURL, Context: p.Context,
		Message: p.Message, CustomTag: p.CustomTag, AssetIds: assets, Photo: photo,
		AdultRecipientConfirmed: p.AdultConfirmed, Details: details, ImportID: p.ImportID, ImportRowID: p.ImportRowID,
		AddressMode: string(p.AddressMode), Address: p.Address, City: p.City, State: p.State, Zip: p.Zip,
		Country: p.Country, CreatedAt: now, UpdatedAt: now,
	}, nil
}

// updateParams rewrite a stored person.
func (p person) updateParams(campaignID string, now time.Time) (db.RecipientUpdateParams, error) {
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
		State: ins.State, Zip: ins.Zip, Country: ins.Country, UpdatedAt: now, CampaignID: campaignID, ID: p.id,
	}, nil
}

// record is the person as reads return them, with their note resolved
// against the campaign's shared message.
func (p person) record(sharedMessage, sendID string) Recipient {
	note := resolveNote(sharedMessage, p.Message, p.noteValues())
	var details map[string]string
	if len(p.Details) > 0 {
		details = p.Details
	}
	var assets []string
	if len(p.AssetIDs) > 0 {
		assets = p.AssetIDs
	}
	return Recipient{
		RecipientID: p.id, Name: p.Name, Email: p.Email, Company: p.Company, Title: p.Title,
		SourceSystem: p.SourceSystem, ExternalID: p.ExternalID, ProfileURL: p.ProfileURL, Context: p.Context,
		Message: p.Message, CustomTag: p.CustomTag, AssetIDs: assets, Photo: p.Photo,
		AdultRecipientConfirmed: p.AdultConfirmed, Details: details, ImportID: p.ImportID, ImportRowID: p.ImportRowID,
		AddressMode: p.AddressMode, Address: p.Address, City: p.City, State: p.State, Zip: p.Zip, Country: p.Country,
		ResolvedMessage: note.resolved, NoteProblem: note.problem, SendID: sendID,
		RepeatApproved: p.repeatApprovedAt != nil, CreatedAt: p.createdAt,
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
		return Recipient{}, core.FieldError(core.CodeTooManyArtworkFiles, at(path, "assetIds"), "has %d artwork files; a person takes at most %d", len(in.AssetIDs), MaxAssetIDs)
	}
	var pr problems
	f := applyRecipient(newPersonFields(), in, path, recipientRules{product: product}, &pr)
	if err := pr.err(); err != nil {
		return Recipient{}, err
	}
	return person{personFields: f}.record("", ""), nil
}
