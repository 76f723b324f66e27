package distribution

import (
	"slices"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
)

// rowNotice is something an import did differently than a row asked, or
// could not do, for one row.
type rowNotice struct {
	fields  []string
	message string
}

// personOf is row's roster person: each column's cell in its field (empty
// cells are absent), importId and importRowId set. For a gift that
// requires a portrait, photo_url holding an uploaded asset ID is the
// photo; any other photo_url value is returned as photoURL for the caller
// to fetch (a direct image wins), and meanwhile the LinkedIn profile, the
// fallback, is the photo. It returns a notice for an optional cell it
// cannot read (adult_recipient_confirmed that is neither true nor false),
// which the person is added without.
func personOf(row, fields []string, importID, rowID string, portrait bool) (in campaign.RecipientInput, notice *rowNotice, photoURL string) {
	in = campaign.RecipientInput{ImportID: importID, ImportRowID: rowID}
	var first, last, photo string
	for j, f := range fields {
		v := strings.TrimSpace(row[j])
		if v == "" {
			continue
		}
		switch f {
		case FieldName:
			in.Name = v
		case FieldFirstName:
			first = v
		case FieldLastName:
			last = v
		case FieldEmail:
			in.Email = v
		case FieldCompany:
			in.Company = v
		case FieldTitle:
			in.Title = v
		case FieldSourceSystem:
			in.SourceSystem = v
		case FieldExternalID:
			in.ExternalID = v
		case FieldMessage:
			in.Message = v
		case FieldCustomTag:
			in.CustomTag = v
		case FieldPhotoURL:
			photo = v
		case FieldLinkedInURL:
			in.ProfileURL = v
		case FieldAdult:
			switch strings.ToLower(v) {
			case "true":
				t := true
				in.AdultRecipientConfirmed = &t
			case "false":
				f := false
				in.AdultRecipientConfirmed = &f
			default:
				// Never inferred: left unconfirmed, and the row is added.
				notice = &rowNotice{fields: []string{"adultRecipientConfirmed"}, message: "adultRecipientConfirmed: must be true or false" + addedWithout}
			}
		case FieldAddressMode:
			in.AddressMode = gift.AddressMode(strings.ToLower(v))
		case FieldAddress:
			in.Address = v
		case FieldCity:
			in.City = v
		case FieldState:
			in.State = v
		case FieldZip:
			in.Zip = v
		case FieldCountry:
			in.Country = v
		default:
			if key, ok := strings.CutPrefix(f, detailFieldPrefix); ok {
				if in.Details == nil {
					in.Details = map[string]string{}
				}
				in.Details[key] = v
			}
		}
	}
	if in.Name == "" && (first != "" || last != "") {
		in.Name = strings.TrimSpace(first + " " + last)
	}
	if !portrait {
		return in, notice, ""
	}
	if strings.HasPrefix(photo, core.PrefixAsset) {
		in.Photo = &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: photo}
		return in, notice, ""
	}
	if in.ProfileURL != "" {
		in.Photo = &campaign.RecipientPhoto{Source: campaign.PhotoLinkedIn, ProfileURL: in.ProfileURL}
	}
	return in, notice, photo
}

// addedWithout ends the message of a notice about an optional field whose
// value was refused: the row was added all the same.
const addedWithout = " (the row was added without it)"

// blank reports whether every cell of row is empty.
func blank(row []string) bool {
	for _, c := range row {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// foldRowNotices merges the notices of each row into one (its fields and
// messages joined) and folds those of a row left out into its problem, so
// a row is either added (perhaps with one notice) or left out with every
// one of its problems; both lists by row.
func foldRowNotices(problems, notices []RowProblem) ([]RowProblem, []RowProblem) {
	var kept []RowProblem
	for _, n := range notices {
		if k := slices.IndexFunc(problems, func(p RowProblem) bool { return p.Row == n.Row }); k >= 0 {
			problems[k].Fields = append(slices.Clone(n.Fields), problems[k].Fields...)
			problems[k].Message = strings.TrimSuffix(n.Message, addedWithout) + "; " + problems[k].Message
			continue
		}
		if k := slices.IndexFunc(kept, func(p RowProblem) bool { return p.Row == n.Row }); k >= 0 {
			kept[k].Fields = append(kept[k].Fields, n.Fields...)
			kept[k].Message += "; " + n.Message
			continue
		}
		kept = append(kept, n)
	}
	order := func(a, b RowProblem) int { return a.Row - b.Row }
	slices.SortStableFunc(problems, order)
	slices.SortStableFunc(kept, order)
	if kept == nil {
		kept = []RowProblem{}
	}
	return problems, kept
}
