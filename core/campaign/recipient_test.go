package campaign_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestNormalizeLinkedInProfile(t *testing.T) {
	t.Parallel()
	const want = "https://www.linkedin.com/in/jane-doe-42"
	for _, in := range []string{
		"https://www.linkedin.com/in/jane-doe-42",
		"https://www.linkedin.com/in/jane-doe-42/",
		"http://linkedin.com/in/jane-doe-42",
		"linkedin.com/in/jane-doe-42",
		"www.linkedin.com/in/Jane-Doe-42?trk=public_profile",
		"https://uk.linkedin.com/in/jane-doe-42#about",
		"HTTPS://DE.LINKEDIN.COM/in/JANE-DOE-42",
		"  https://www.linkedin.com/in/jane-doe-42  ",
	} {
		got, problem := campaign.NormalizeLinkedInProfile(in)
		require.Empty(t, problem, in)
		require.Equal(t, want, got, in)
	}
	got, problem := campaign.NormalizeLinkedInProfile("https://www.linkedin.com/in/j%C3%BCrgen-m")
	require.Empty(t, problem)
	require.Equal(t, "https://www.linkedin.com/in/j%C3%BCrgen-m", got)

	for in, says := range map[string]string{
		"https://www.linkedin.com/sales/lead/ACwAAA,NAME_SEARCH":  "Sales Navigator",
		"https://www.linkedin.com/sales/people/ACwAAA":            "Sales Navigator",
		"https://www.linkedin.com/company/giftwell":               "company page",
		"https://www.linkedin.com/school/stanford":                "company page",
		"https://www.linkedin.com/pub/jane-doe/1/2/3":             "/pub/",
		"https://www.linkedin.com/":                               "home page",
		"https://www.linkedin.com/in/":                            "no profile slug",
		"https://www.linkedin.com/in/jane/details/experience":     "without more path",
		"https://www.linkedin.com/feed/":                          "not a personal profile",
		"https://m.linkedin.com/in/jane":                          "personal LinkedIn profile",
		"https://usa.linkedin.com/in/jane":                        "personal LinkedIn profile",
		"https://linkedin.com.evil.example/in/jane":               "personal LinkedIn profile",
		"https://twitter.com/jane":                                "personal LinkedIn profile",
		"ftp://www.linkedin.com/in/jane":                          "http or https",
		"https://user:pw@www.linkedin.com/in/jane":                "plain",
		"https://www.linkedin.com:8443/in/jane":                   "plain",
		"https://www.linkedin.com/in/jane%20doe":                  "invalid",
		"https://www.linkedin.com/in/" + strings.Repeat("a", 101): "invalid",
		"": "empty",
	} {
		got, problem := campaign.NormalizeLinkedInProfile(in)
		require.Empty(t, got, in)
		require.Contains(t, problem, says, in)
	}
}

func TestNormalizeUSStateAndZip(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"TX": "TX", "tx": "TX", "Texas": "TX", "texas": "TX", " New  York ": "NY", "district of columbia": "DC",
		"Washington DC": "DC", "washington": "WA",
	} {
		got, ok := campaign.NormalizeUSState(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "XX", "Ontario", "PR", "T", "Texass"} {
		_, ok := campaign.NormalizeUSState(in)
		require.False(t, ok, in)
	}
	for in, want := range map[string]string{
		"78701": "78701", " 78701 ": "78701", "78701-1234": "78701-1234", "787011234": "78701-1234", "78701 1234": "78701-1234",
	} {
		got, ok := campaign.NormalizeZip(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "7870", "787012", "78701-123", "78701--1234", "78701-", "-78701", "7870a", "78701-12345", "1234-56789"} {
		_, ok := campaign.NormalizeZip(in)
		require.False(t, ok, in)
	}
}

func TestNormalizeRecipientRules(t *testing.T) {
	t.Parallel()
	products := apptest.EmbeddedCatalog(t)
	product := func(id string) *catalog.Product {
		for i := range products {
			if products[i].ID == id {
				return &products[i]
			}
		}
		t.Fatalf("no product %s", id)
		return nil
	}
	city := product("illustrated-city-print")
	yes := true

	r, err := campaign.NormalizeRecipient(campaign.RecipientInput{
		Name: " Jane Doe ", Email: " Jane@Example.COM ", ProfileURL: "uk.linkedin.com/in/jane", AddressMode: gift.AddressKnown,
		Address: "1 Main St", City: "Austin", State: "texas", Zip: "787011234", Country: "us",
		Details: map[string]string{"city": "Austin, TX", "companyWebsite": "https://example.com"}, AdultRecipientConfirmed: &yes,
		Photo: &campaign.RecipientPhoto{Source: campaign.PhotoLinkedIn, ProfileURL: "linkedin.com/in/Jane"},
	}, city, "recipients[0]")
	require.NoError(t, err)
	require.Equal(t, "Jane Doe", r.Name)
	require.Equal(t, "jane@example.com", r.Email)
	require.Equal(t, "https://www.linkedin.com/in/jane", r.ProfileURL)
	require.Equal(t, "TX", r.State)
	require.Equal(t, "78701-1234", r.Zip)
	require.Equal(t, "US", r.Country)
	require.Equal(t, "https://www.linkedin.com/in/jane", r.Photo.ProfileURL)
	require.True(t, r.AdultRecipientConfirmed)

	// Every identity form alone is enough.
	for _, in := range []campaign.RecipientInput{
		{Name: "Only Name"},
		{ProfileURL: "https://www.linkedin.com/in/only-profile"},
		{SourceSystem: "hubspot", ExternalID: "42"},
	} {
		_, err := campaign.NormalizeRecipient(in, city, "recipients[0]")
		require.NoError(t, err, "%+v", in)
	}

	for _, tc := range []struct {
		in    campaign.RecipientInput
		code  core.Code
		field string
	}{
		{campaign.RecipientInput{Email: "a@example.com"}, core.CodeValidation, "recipients[0]"},
		{campaign.RecipientInput{Company: "Acme"}, core.CodeValidation, "recipients[0]"},
		{campaign.RecipientInput{Name: "A", SourceSystem: "hubspot"}, core.CodeValidation, "recipients[0].externalId"},
		{campaign.RecipientInput{Name: "A", ExternalID: "42"}, core.CodeValidation, "recipients[0].sourceSystem"},
		{campaign.RecipientInput{Name: "A", Email: "not-an-email"}, core.CodeValidation, "recipients[0].email"},
		{campaign.RecipientInput{Name: "A", Email: "Jane <jane@example.com>"}, core.CodeValidation, "recipients[0].email"},
		{campaign.RecipientInput{ProfileURL: "https://www.linkedin.com/sales/lead/x"}, core.CodeValidation, "recipients[0].profileUrl"},
		{campaign.RecipientInput{ProfileURL: "https://www.linkedin.com/company/acme"}, core.CodeValidation, "recipients[0].profileUrl"},
		{campaign.RecipientInput{ProfileURL: "https://www.linkedin.com/pub/jane/1/2/3"}, core.CodeValidation, "recipients[0].profileUrl"},
		{campaign.RecipientInput{Name: "A", AddressMode: gift.AddressKnown, Address: "1 Main", City: "Austin", State: "TX"}, core.CodeValidation, "recipients[0].zip"},
		{campaign.RecipientInput{Name: "A", AddressMode: gift.AddressKnown, Address: "1 Main", City: "Austin", Zip: "78701"}, core.CodeValidation, "recipients[0].state"},
		{campaign.RecipientInput{Name: "A", AddressMode: gift.AddressKnown, City: "Austin", State: "TX", Zip: "78701"}, core.CodeValidation, "recipients[0].address"},
		{campaign.RecipientInput{Name: "A", AddressMode: gift.AddressKnown, Address: "1 Main", State: "TX", Zip: "78701"}, core.CodeValidation, "recipients[0].city"},
		{campaign.RecipientInput{ProfileURL: "https://www.linkedin.com/in/x", AddressMode: gift.AddressKnown, Address: "1 Main", City: "Austin", State: "TX", Zip: "78701"}, core.CodeValidation, "recipients[0].name"},
		{campaign.RecipientInput{Name: "A", AddressMode: gift.AddressKnown, Address: "1 Main", City: "Austin", State: "Ontario", Zip: "78701"}, core.CodeValidation, "recipients[0].state"},
		{campaign.RecipientInput{Name: "A", AddressMode: gift.AddressKnown, Address: "1 Main", City: "Austin", State: "TX", Zip: "7870"}, core.CodeValidation, "recipients[0].zip"},
		{campaign.RecipientInput{Name: "A", AddressMode: gift.AddressKnown, Address: "1 Main", City: "Austin", State: "TX", Zip: "78701", Country: "CA"}, core.CodeValidation, "recipients[0].country"},
		{campaign.RecipientInput{Name: "A", Address: "1 Main"}, core.CodeValidation, "recipients[0].addressMode"},
		{campaign.RecipientInput{Name: "A", Details: map[string]string{"shoeSize": "9"}}, core.CodeValidation, "recipients[0].details.shoeSize"},
		{campaign.RecipientInput{Name: "A", Details: map[string]string{"city": strings.Repeat("x", 81)}}, core.CodeValidation, "recipients[0].details.city"},
		{campaign.RecipientInput{Name: "A", Details: map[string]string{"companyWebsite": "example dot com"}}, core.CodeValidation, "recipients[0].details.companyWebsite"},
		{campaign.RecipientInput{Name: "A", ImportID: "imp_1"}, core.CodeValidation, "recipients[0].importRowId"},
		{campaign.RecipientInput{Name: "A", ImportRowID: "7"}, core.CodeValidation, "recipients[0].importId"},
		{campaign.RecipientInput{Name: "A", AssetIDs: []string{"asset_1", "asset_2", "asset_3", "asset_4", "asset_5", "asset_6"}}, core.CodeTooManyArtworkFiles, "recipients[0].assetIds"},
		{campaign.RecipientInput{Name: "A", AssetIDs: []string{"logo.png"}}, core.CodeValidation, "recipients[0].assetIds[0]"},
		{campaign.RecipientInput{Name: "A", AssetIDs: []string{"asset_1", "asset_1"}}, core.CodeValidation, "recipients[0].assetIds[1]"},
		{campaign.RecipientInput{Name: "A", Photo: &campaign.RecipientPhoto{Source: campaign.PhotoUpload}}, core.CodeValidation, "recipients[0].photo.assetId"},
		{campaign.RecipientInput{Name: "A", Photo: &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: "asset_1", ProfileURL: "https://www.linkedin.com/in/a"}}, core.CodeValidation, "recipients[0].photo.profileUrl"},
		{campaign.RecipientInput{Name: "A", Photo: &campaign.RecipientPhoto{Source: campaign.PhotoLinkedIn}}, core.CodeValidation, "recipients[0].photo.profileUrl"},
		{campaign.RecipientInput{Name: "A", Photo: &campaign.RecipientPhoto{Source: campaign.PhotoLinkedIn, ProfileURL: "https://www.linkedin.com/company/x"}}, core.CodeValidation, "recipients[0].photo.profileUrl"},
		{campaign.RecipientInput{Name: "A", Photo: &campaign.RecipientPhoto{Source: "gravatar"}}, core.CodeValidation, "recipients[0].photo.source"},
		{campaign.RecipientInput{Name: "A", CustomTag: strings.Repeat("x", 201)}, core.CodeValidation, "recipients[0].customTag"},
		{campaign.RecipientInput{Name: "A", Message: "Hi {{lastName}}"}, core.CodeValidation, "recipients[0].message"},
		{campaign.RecipientInput{Name: "A\nB"}, core.CodeValidation, "recipients[0].name"},
	} {
		_, err := campaign.NormalizeRecipient(tc.in, city, "recipients[0]")
		e := core.AsError(err)
		require.NotNil(t, e, "%+v", tc.in)
		require.Equal(t, tc.code, e.Code, "%+v: %s", tc.in, e.Message)
		require.Contains(t, e.Fields, tc.field, "%+v: %s", tc.in, e.Message)
		require.Contains(t, e.Message, tc.field+": ", "%+v", tc.in)
	}
}

func TestResolveNote(t *testing.T) {
	t.Parallel()
	v := campaign.NoteValues{Name: "  Jane   Q. Doe ", Company: "{{name}} & Co", CustomTag: "loves tea"}
	note, missing := campaign.ResolveNote("Hi {{firstName}} ({{name}}) at {{company}}, {{custom}}! {{firstName}}", v)
	require.Empty(t, missing)
	// Values are inserted literally and once: the company's {{name}} stays.
	require.Equal(t, "Hi Jane (Jane   Q. Doe) at {{name}} & Co, loves tea! Jane", note)

	note, missing = campaign.ResolveNote("Hi {{firstName}} at {{company}} {{company}}", campaign.NoteValues{Name: "Jane"})
	require.Equal(t, []string{"{{company}}"}, missing)
	require.Equal(t, "Hi Jane at  ", note)

	_, missing = campaign.ResolveNote("{{custom}}{{name}}", campaign.NoteValues{})
	require.Equal(t, []string{"{{custom}}", "{{name}}"}, missing)

	note, missing = campaign.ResolveNote("No placeholders, {{ not one }} either", campaign.NoteValues{})
	require.Empty(t, missing)
	require.Equal(t, "No placeholders, {{ not one }} either", note)
}
