package payments_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/payments"
)

func TestSandboxProcessor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := payments.SandboxProcessor{SiteURL: "https://gifts.example.com/"}
	require.Equal(t, ledger.SandboxProcessorName, p.Name())

	req := ledger.TopupRequest{TopupID: "top_1", WorkspaceID: "ws_1", Mode: core.ModeTest, Cents: 2_500, ReturnURL: "https://gifts.example.com/balance"}
	s, err := p.CreateTopupSession(ctx, req)
	require.NoError(t, err)
	require.Regexp(t, `^sbx_[0-9a-f]{24}$`, s.ID)
	require.Equal(t, "https://gifts.example.com/sandbox/pay/"+s.ID, s.URL)
	again, err := p.CreateTopupSession(ctx, req)
	require.NoError(t, err)
	require.NotEqual(t, s.ID, again.ID, "each call opens a new session")

	req.Mode = core.ModeLive
	_, err = p.CreateTopupSession(ctx, req)
	require.Equal(t, core.CodeInvalidRequestState, core.ErrorCode(err), "test payments never fund live gifts")
}
