package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// ledgerInput is GET /balance/ledger's query.
type ledgerInput struct {
	Limit *int `json:"limit,omitempty" jsonschema:"how many entries to return, newest first" schema:"minimum=1,maximum=200,default=50"`
}

// balanceOperations are the balance routes with no tool of their own:
// GET /balance/ledger.
func balanceOperations() ([]operation, error) {
	input, err := tools.SchemaFor[ledgerInput]()
	if err != nil {
		return nil, fmt.Errorf("rest: ledger input schema: %w", err)
	}
	data, err := payloadSchema[[]core.LedgerEntry]()
	if err != nil {
		return nil, fmt.Errorf("rest: ledger schema: %w", err)
	}
	return []operation{{
		ID:      "list_balance_ledger",
		Method:  http.MethodGet,
		Path:    "/balance/ledger",
		Summary: "The balance's ledger, newest first",
		Description: "The entries of the workspace's balance in its current mode, newest first (limit 1-200, default 50): " +
			"topup, debit (a gift paid, negative cents), credit (a gift's cost given back) and adjustment. The balance is the sum of its entries.",
		Status: http.StatusOK,
		Access: accessRequired,
		Input:  input,
		Data:   data,
		Out:    reflect.TypeFor[[]core.LedgerEntry](),
		handle: (*server).ledgerHandler,
	}}, nil
}

// ledgerHandler serves GET /balance/ledger.
func (s *server) ledgerHandler(op *operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		args, err := op.bind.args(r, nil)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		var in ledgerInput
		if err := json.Unmarshal(args, &in); err != nil {
			s.fail(w, r, core.Internal(err))
			return
		}
		limit := core.DefaultLedgerLimit
		if in.Limit != nil {
			limit = *in.Limit
		}
		entries, err := s.app.Ledger(r.Context(), principalFrom(r), limit)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.respond(w, r, op.Status, entries)
	}
}
