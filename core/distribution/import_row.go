package distribution

import (
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
// fallback, is the photo. It returns a problem that leaves the row out (a
// field the add rules cannot read).
func personOf(row, fields []string, importID, rowID string, portrait bool) (in campaign.RecipientInput, problem *rowNotice, photoURL string) {
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
				return in, &rowNotice{fields: []string{"adultRecipientConfirmed"}, message: "adultRecipientConfirmed: must be true or false"}, ""
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
		return in, nil, ""
	}
	if strings.HasPrefix(photo, core.PrefixAsset) {
		in.Photo = &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: photo}
		return in, nil, ""
	}
	if in.ProfileURL != "" {
		in.Photo = &campaign.RecipientPhoto{Source: campaign.PhotoLinkedIn, ProfileURL: in.ProfileURL}
	}
	return in, nil, photo
}

// blank reports whether every cell of row is empty.
func blank(row []string) bool {
	for _, c := range row {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}
