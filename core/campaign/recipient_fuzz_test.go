package campaign_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
)

// decodeStrict decodes data into v refusing unknown fields and trailing data,
// as the registry does.
func decodeStrict(data []byte, v any) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if dec.Decode(v) != nil {
		return false
	}
	return !dec.More()
}

// checkFieldError fails unless err is one of codes and every field it names
// is under prefix and starts a part of the message.
func checkFieldError(t *testing.T, err error, prefix string, codes ...core.Code) {
	t.Helper()
	e, ok := err.(*core.Error)
	if !ok {
		t.Fatalf("not a *core.Error: %T %v", err, err)
	}
	found := false
	for _, c := range codes {
		found = found || e.Code == c
	}
	if !found {
		t.Fatalf("code %s not in %v: %s", e.Code, codes, e.Message)
	}
	if len(e.Fields) == 0 {
		t.Fatalf("%s names no field: %s", e.Code, e.Message)
	}
	for _, f := range e.Fields {
		if !strings.HasPrefix(f, prefix) || !strings.Contains(e.Message, f+": ") {
			t.Fatalf("field %q is not named in %q", f, e.Message)
		}
	}
}

// asInput turns a normalised record back into input.
func asInput(r campaign.Recipient) campaign.RecipientInput {
	adult := r.AdultRecipientConfirmed
	return campaign.RecipientInput{
		Name: r.Name, Email: r.Email, Company: r.Company, Title: r.Title, SourceSystem: r.SourceSystem,
		ExternalID: r.ExternalID, ProfileURL: r.ProfileURL, Context: r.Context, Message: r.Message, CustomTag: r.CustomTag,
		AssetIDs: r.AssetIDs, Photo: r.Photo, AdultRecipientConfirmed: &adult, Details: r.Details, ImportID: r.ImportID,
		ImportRowID: r.ImportRowID, AddressMode: r.AddressMode, Address: r.Address, City: r.City, State: r.State,
		Zip: r.Zip, Country: r.Country,
	}
}

// FuzzRecipientDecoder feeds arbitrary JSON through the recipient decoder:
// strict decoding, then NormalizeRecipient. Errors name fields under the
// person's path; accepted people are normalised once and for all.
func FuzzRecipientDecoder(f *testing.F) {
	for _, seed := range []string{
		`{"name":"Jane Doe"}`,
		`{"profileUrl":"uk.linkedin.com/in/Jane-Doe?trk=x"}`,
		`{"sourceSystem":"hubspot","externalId":"42","email":"JANE@EXAMPLE.COM"}`,
		`{"name":"Jane","addressMode":"known","address":"1 Main St","city":"Austin","state":"texas","zip":"787011234","country":"us"}`,
		`{"name":"Jane","details":{"city":"Austin, TX","companyWebsite":"https://example.com"}}`,
		`{"name":"Jane","photo":{"source":"linkedin","profileUrl":"linkedin.com/in/jane"}}`,
		`{"name":"Jane","photo":{"source":"upload","assetId":"asset_1"},"assetIds":["asset_2"]}`,
		`{"name":"Jane","importId":"imp_1","importRowId":"3","customTag":"tea","message":"Hi {{firstName}}"}`,
		`{"profileUrl":"https://www.linkedin.com/sales/lead/x"}`,
		`{"name":"A","assetIds":["asset_1","asset_2","asset_3","asset_4","asset_5","asset_6"]}`,
		`{"name":"A","address":"1 Main"}`,
		`{"name":"A","message":"{{lastName}}"}`,
	} {
		f.Add([]byte(seed))
	}
	products, err := catalog.EmbeddedCatalog()
	if err != nil {
		f.Fatal(err)
	}
	var product *catalog.Product
	for i := range products {
		if products[i].ID == "illustrated-city-print" {
			product = &products[i]
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var in campaign.RecipientInput
		if !decodeStrict(data, &in) {
			return
		}
		r, err := campaign.NormalizeRecipient(in, product, "recipients[7]")
		if err != nil {
			checkFieldError(t, err, "recipients[7]", core.CodeValidation, core.CodeTooManyArtworkFiles)
			return
		}
		if r.Name == "" && r.ProfileURL == "" && (r.SourceSystem == "" || r.ExternalID == "") {
			t.Fatalf("accepted a person without identity: %+v", r)
		}
		if r.Email != strings.ToLower(r.Email) {
			t.Fatalf("email not lowercased: %q", r.Email)
		}
		if r.ProfileURL != "" {
			if again, problem := campaign.NormalizeLinkedInProfile(r.ProfileURL); again != r.ProfileURL || problem != "" {
				t.Fatalf("profileUrl %q normalises to %q (%s)", r.ProfileURL, again, problem)
			}
		}
		if r.AddressMode == gift.AddressKnown {
			if code, ok := campaign.NormalizeUSState(r.State); !ok || code != r.State {
				t.Fatalf("state %q", r.State)
			}
			if zip, ok := campaign.NormalizeZip(r.Zip); !ok || zip != r.Zip {
				t.Fatalf("zip %q", r.Zip)
			}
		} else if r.Address+r.City+r.State+r.Zip != "" {
			t.Fatalf("address kept with addressMode %s", r.AddressMode)
		}
		again, err := campaign.NormalizeRecipient(asInput(r), product, "recipients[7]")
		if err != nil {
			t.Fatalf("the normalised person is refused: %v", err)
		}
		a, _ := json.Marshal(r)
		b, _ := json.Marshal(again)
		if !bytes.Equal(a, b) {
			t.Fatalf("normalising twice changed the person:\n%s\n%s", a, b)
		}
	})
}

// FuzzCampaignDecoder feeds arbitrary JSON through the campaign decoder:
// strict decoding, then CheckCampaignInput against the gift it names (or
// the first). Every refusal names its fields; nothing panics.
func FuzzCampaignDecoder(f *testing.F) {
	for _, seed := range []string{
		`{"name":"Launch","productId":"engraved-walnut-desk-organizer","senderName":"Sam","senderCompany":"Acme","mode":"always_on"}`,
		`{"name":"Batch","productId":"gourmet-snack-crate","senderName":"Sam","senderCompany":"Acme","mode":"batch","budgetCents":90000,"perPersonCents":9000,"maxSends":10,"recipients":[{"name":"A"},{"email":"b@example.com","name":"B"}]}`,
		`{"name":"B","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A","mode":"single"}`,
		`{"name":"B","productId":"engraved-walnut-desk-organizer","senderName":"S","senderCompany":"A","customization":{"displayText":"Jane\nDoe","giftLinkWelcome":"Hi {{firstName}}"}}`,
		`{"name":"B","productId":"illustrated-city-print","senderName":"S","senderCompany":"A","mode":"always_on","message":"Hi {{company}}","recipients":[{"name":"A","details":{"city":"Austin"}}]}`,
		`{"name":"B","productId":"x","senderName":"S","senderCompany":"A","attribution":{"source":"crm","metadata":{"a":"b"}},"meetingUrl":"https://cal.example/x"}`,
		`{"name":"B","productId":"x","senderName":"S","senderCompany":"A","recipients":[{"email":"a@example.com","name":"A"},{"email":"A@example.com","name":"B"}]}`,
	} {
		f.Add([]byte(seed))
	}
	products, err := catalog.EmbeddedCatalog()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var in campaign.CampaignInput
		if !decodeStrict(data, &in) {
			return
		}
		product := products[0]
		for _, p := range products {
			if p.ID == in.ProductID {
				product = p
			}
		}
		err := campaign.CheckCampaignInput(in, product)
		if err == nil {
			if in.Mode != campaign.ModeAlwaysOn && (in.MaxSends > campaign.MaxBatchSends || len(in.Recipients) > core.RecipientsPerCampaign) {
				t.Fatalf("a %s campaign accepted maxSends %d with %d people", in.Mode, in.MaxSends, len(in.Recipients))
			}
			return
		}
		e := core.AsError(err)
		switch e.Code {
		case core.CodeValidation, core.CodeTooManyArtworkFiles, core.CodeDuplicateRecipient:
		default:
			t.Fatalf("unexpected code %s: %s", e.Code, e.Message)
		}
		for _, field := range e.Fields {
			if !strings.Contains(e.Message, field+": ") {
				t.Fatalf("field %q is not named in %q", field, e.Message)
			}
		}
	})
}

// FuzzNormalizeLinkedInProfile checks that a normalised profile is a
// www.linkedin.com/in/ URL that normalises to itself.
func FuzzNormalizeLinkedInProfile(f *testing.F) {
	for _, seed := range []string{"linkedin.com/in/jane", "https://uk.linkedin.com/in/J%C3%BCrgen/", "https://www.linkedin.com/company/x", "http://de.linkedin.com/in/a_b-c?x=1#y"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, problem := campaign.NormalizeLinkedInProfile(raw)
		if problem != "" {
			if got != "" {
				t.Fatalf("%q: both a URL and a problem", raw)
			}
			return
		}
		if !strings.HasPrefix(got, "https://www.linkedin.com/in/") {
			t.Fatalf("%q -> %q", raw, got)
		}
		if again, p := campaign.NormalizeLinkedInProfile(got); again != got || p != "" {
			t.Fatalf("%q -> %q -> %q (%s)", raw, got, again, p)
		}
	})
}
