package apptest

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
)

// NewBatch creates a draft batch of people people for p (gourmet-snack-crate,
// a note): the first confirms their own address through a gift link, the
// others have known addresses.
func (e *Env) NewBatch(t testing.TB, p core.Principal, people int) campaign.Campaign {
	t.Helper()
	return e.NewBatchOf(t, p, "gourmet-snack-crate", people)
}

// NewBatchOf is NewBatch of gift productID.
func (e *Env) NewBatchOf(t testing.TB, p core.Principal, productID string, people int) campaign.Campaign {
	t.Helper()
	var rs []campaign.RecipientInput
	for i := range people {
		r := campaign.RecipientInput{Name: fmt.Sprintf("Person %d", i), Email: fmt.Sprintf("p%d-%s@example.com", i, core.RandomHex(3))}
		if i > 0 {
			r.AddressMode, r.Address, r.City, r.State, r.Zip = gift.AddressKnown, "1 Main St", "Austin", "TX", "78701"
		}
		rs = append(rs, r)
	}
	b, err := e.App.Campaigns.CreateCampaign(context.Background(), p, campaign.CampaignInput{
		Name: "Thanks", Mode: campaign.ModeBatch, ProductID: productID, BudgetCents: 1_000_000, PerPersonCents: 20_000, MaxSends: 50,
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks {{firstName}}", Recipients: rs,
	})
	require.NoError(t, err)
	return b
}
