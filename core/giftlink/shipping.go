package giftlink

import (
	"context"
	"encoding/json"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// ShippingAddress is where gift sendID ships, for the service's staff
// (giftwell staff gift), who produce and ship live gifts: the address its
// recipient confirmed through the link, else the one its sender supplied,
// else nil while neither exists. It has no principal: no key, connection
// or signed-in person reaches it. It returns NOT_FOUND naming send for an
// unknown gift.
func (s *Service) ShippingAddress(ctx context.Context, sendID string) (*Address, error) {
	q := db.New(s.DB)
	row, err := q.SendGetForShipping(ctx, sendID)
	if core.IsNoRows(err) {
		return nil, core.FieldError(core.CodeNotFound, "send", "no gift %s", sendID)
	}
	if err != nil {
		return nil, core.Internal(err)
	}
	a, err := q.GiftAddressGet(ctx, sendID)
	if err == nil {
		return &Address{Name: a.Name, Street: a.Street, Street2: a.Street2, City: a.City, State: a.State, Zip: a.Zip}, nil
	}
	if !core.IsNoRows(err) {
		return nil, core.Internal(err)
	}
	var r gift.GiftRecipient
	if err := json.Unmarshal(row, &r); err != nil {
		return nil, core.Internal(err)
	}
	if r.AddressMode != gift.AddressKnown || r.Address == "" {
		return nil, nil
	}
	return &Address{Name: r.Name, Street: r.Address, City: r.City, State: r.State, Zip: r.Zip}, nil
}
