package distribution

import (
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// rowNotice is something an import did differently than a row asked, or
// could not do, for one row.
type rowNotice struct {
	fields  []string
	message string
}

// personOf is row's roster person: each column's cell in its field (empty
// cells are absent), importId and importRowId set. A direct image
// (photo_url as an uploaded asset) is the portrait; the LinkedIn profile
// is the fallback; portraits only for a gift that requires one. It
// returns a problem that leaves the row out (a field the add rules cannot
// read), and notices that do not.
func personOf(row, fields []string, importID, rowID string, portrait bool) (campaign.RecipientInput, *rowNotice, []rowNotice) {
	in := campaign.RecipientInput{ImportID: importID, ImportRowID: rowID}
	var (
		first, last, photo string
		notices            []rowNotice
	)
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
				return in, &rowNotice{fields: []string{"adultRecipientConfirmed"}, message: "adultRecipientConfirmed: must be true or false"}, nil
			}
		case FieldAddressMode:
			in.AddressMode = campaign.AddressMode(strings.ToLower(v))
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
		return in, nil, notices
	}
	linkedIn := &campaign.RecipientPhoto{Source: campaign.PhotoLinkedIn, ProfileURL: in.ProfileURL}
	switch {
	case strings.HasPrefix(photo, core.PrefixAsset):
		in.Photo = &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: photo}
	case photo != "":
		msg := "photo: an import does not fetch images; import the image as a photo and give its asset ID (asset_...) in photo_url"
		if in.ProfileURL != "" {
			msg += "; the LinkedIn profile is the portrait until then"
			in.Photo = linkedIn
		}
		notices = append(notices, rowNotice{fields: []string{"photo"}, message: msg})
	case in.ProfileURL != "":
		in.Photo = linkedIn
	}
	return in, nil, notices
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
