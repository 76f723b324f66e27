package tools

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
)

// GetBalanceInput is get_balance's input: nothing.
type GetBalanceInput struct{}

// CreateBalanceTopupInput is create_balance_topup's input.
type CreateBalanceTopupInput struct {
	Cents          int64  `json:"cents" jsonschema:"the amount to add in USD cents, 2500-2000000" schema:"minimum=2500,maximum=2000000"`
	IdempotencyKey string `json:"idempotencyKey" jsonschema:"8-150 characters; the same key and cents return the same payment page, the same key with other cents is IDEMPOTENCY_CONFLICT" schema:"minLength=8,maxLength=150"`
}

// ListBalanceLedgerInput is list_balance_ledger's input.
type ListBalanceLedgerInput struct {
	Limit *int `json:"limit,omitempty" jsonschema:"how many entries to return, newest first" schema:"minimum=1,maximum=200,default=50"`
}

const descGetBalance = "Read the prepaid balance in the current mode (test funds never pay for live gifts); playbook gifts are paid from it. " +
	"When lowBalance is true (it cannot cover the people waiting plus one gift per active playbook) hand topUpUrl to an owner or admin. Changes nothing."

const descCreateBalanceTopup = "Start adding funds to the workspace's balance in its current mode: 2500-2000000 cents with an idempotencyKey. " +
	"Returns {url, sessionId}: the payment page a signed-in owner or admin opens to pay; the balance grows once the payment completes. " +
	"Only a signed-in owner or admin may do this: keys and connections get HUMAN_APPROVAL_REQUIRED with the balance page to hand to a person."

const descListBalanceLedger = "The entries of the workspace's balance in its current mode, newest first (limit 1-200, default 50): " +
	"topup, debit (a gift paid, negative cents), credit (a gift's cost given back) and adjustment. The balance is the sum of its entries."

// balanceTools are the prepaid balance tools, then the ledger, which only
// REST serves.
func balanceTools(app *giftwell.App) []Tool {
	balancePage := func(json.RawMessage) string { return app.Config.BalanceURL() }
	return []Tool{
		Define("get_balance", descGetBalance, ScopeRead, core.ActReadQueueAndBalance,
			func(ctx context.Context, p core.Principal, _ GetBalanceInput) (ledger.Balance, error) {
				return app.Approvals.Balance(ctx, p)
			},
			Title("Read the balance"), ReadOnly(), PersonURL(balancePage), REST(http.MethodGet, "/balance", http.StatusOK)),
		Define("create_balance_topup", descCreateBalanceTopup, ScopeSignedIn, core.ActPay,
			func(ctx context.Context, p core.Principal, in CreateBalanceTopupInput) (ledger.TopupSession, error) {
				return app.Ledger.CreateBalanceTopup(ctx, p, ledger.TopupParams{Cents: in.Cents, IdempotencyKey: in.IdempotencyKey})
			},
			Title("Add funds to the balance"), Idempotent(), OpenWorld(), PersonURL(balancePage), REST(http.MethodPost, "/balance/topup", http.StatusOK)),
		Define("list_balance_ledger", descListBalanceLedger, ScopeRead, core.ActReadQueueAndBalance,
			func(ctx context.Context, p core.Principal, in ListBalanceLedgerInput) ([]ledger.LedgerEntry, error) {
				limit := ledger.DefaultLedgerLimit
				if in.Limit != nil {
					limit = *in.Limit
				}
				return app.Ledger.Ledger(ctx, p, limit)
			},
			Title("The balance's ledger, newest first"), RESTOnly(), ReadOnly(), PersonURL(balancePage), REST(http.MethodGet, "/balance/ledger", http.StatusOK)),
	}
}
