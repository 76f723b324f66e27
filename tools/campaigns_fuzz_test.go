package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
)

// fieldsNamed fails unless every field err names starts a part of its message.
func fieldsNamed(t *testing.T, err error, raw string) *core.Error {
	t.Helper()
	e := core.AsError(err)
	for _, f := range e.Fields {
		if !strings.Contains(e.Message, f+": ") {
			t.Fatalf("%s: field %q not named in %q (input %q)", e.Code, f, e.Message, raw)
		}
	}
	return e
}

// FuzzCreateCampaignArgs runs create_campaign's whole decoder on arbitrary
// arguments: the registry's schema check and strict decoding, then core's
// checks against the gift named (or the first). Every refusal is a coded
// error naming its fields; nothing panics.
func FuzzCreateCampaignArgs(f *testing.F) {
	for _, seed := range []string{
		`{"name":"P","mode":"always_on","productId":"engraved-walnut-desk-organizer","senderName":"S","senderCompany":"A","customization":{"displayText":"Jane"}}`,
		`{"name":"B","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A","budgetCents":9000,"perPersonCents":9000,"maxSends":1,"recipients":[{"name":"A","zip":"1"}]}`,
		`{"name":"B","productId":"illustrated-city-print","senderName":"S","senderCompany":"A","mode":"single","budgetCents":1,"perPersonCents":2,"maxSends":0}`,
		`{"name":"B","productId":"x","senderName":"S","senderCompany":"A","recipients":[{"email":"a@example.com","name":"A"},{"email":"A@EXAMPLE.com","name":"B"}],"idempotencyKey":"abcdefgh"}`,
		`{"name":null}`, `[]`, `{"recipients":[{"photo":{"source":"upload"}}]}`, `{"attribution":{"metadata":{"a":1}}}`,
	} {
		f.Add(seed)
	}
	schema, err := schemaFor[CreateCampaignInput]()
	if err != nil {
		f.Fatal(err)
	}
	val := newValidator("create_campaign", schema)
	products, err := catalog.EmbeddedCatalog()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var in CreateCampaignInput
		if err := decodeArgs(val, json.RawMessage(raw), &in); err != nil {
			if e := fieldsNamed(t, err, raw); e.Code != core.CodeValidation && e.Code != core.CodeInvalidJSON {
				t.Fatalf("decode: unexpected code %s for %q", e.Code, raw)
			}
			return
		}
		product := products[0]
		for _, p := range products {
			if p.ID == in.ProductID {
				product = p
			}
		}
		if err := campaign.CheckCampaignInput(in.CampaignInput, product); err != nil {
			switch e := fieldsNamed(t, err, raw); e.Code {
			case core.CodeValidation, core.CodeTooManyArtworkFiles, core.CodeDuplicateRecipient:
			default:
				t.Fatalf("check: unexpected code %s for %q", e.Code, raw)
			}
		}
	})
}

// FuzzAddRecipientsArgs runs add_recipients' decoder on arbitrary
// arguments: the schema and strict decoding, then each person through
// core.NormalizeRecipient for a gift with recipient details.
func FuzzAddRecipientsArgs(f *testing.F) {
	for _, seed := range []string{
		`{"id":"cmp_1","expectedPolicyVersion":1,"recipients":[{"name":"Jane","profileUrl":"uk.linkedin.com/in/jane"}]}`,
		`{"id":"cmp_1","recipients":[{"sourceSystem":"crm","externalId":"1","addressMode":"known","name":"J","address":"1 Main","city":"Austin","state":"Texas","zip":"78701-1234"}]}`,
		`{"id":"cmp_1","recipients":[{"name":"J","details":{"city":"Austin","companyWebsite":"ftp://x"}}]}`,
		`{"id":"cmp_1","recipients":[{"name":"J","photo":{"source":"linkedin","profileUrl":"https://www.linkedin.com/pub/x"}}]}`,
		`{"id":"cmp_1","recipients":[]}`, `{"id":"cmp_1","recipients":[{"adultRecipientConfirmed":null}]}`,
	} {
		f.Add(seed)
	}
	schema, err := schemaFor[AddRecipientsInput]()
	if err != nil {
		f.Fatal(err)
	}
	val := newValidator("add_recipients", schema)
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
	f.Fuzz(func(t *testing.T, raw string) {
		var in AddRecipientsInput
		if err := decodeArgs(val, json.RawMessage(raw), &in); err != nil {
			if e := fieldsNamed(t, err, raw); e.Code != core.CodeValidation && e.Code != core.CodeInvalidJSON {
				t.Fatalf("decode: unexpected code %s for %q", e.Code, raw)
			}
			return
		}
		if len(in.Recipients) == 0 || len(in.Recipients) > campaign.PeoplePerAddCall {
			t.Fatalf("the schema let %d people through", len(in.Recipients))
		}
		for _, r := range in.Recipients {
			if _, err := campaign.NormalizeRecipient(r, product, "recipients[0]"); err != nil {
				switch e := fieldsNamed(t, err, raw); e.Code {
				case core.CodeValidation, core.CodeTooManyArtworkFiles:
				default:
					t.Fatalf("normalise: unexpected code %s for %q", e.Code, raw)
				}
			}
		}
	})
}
