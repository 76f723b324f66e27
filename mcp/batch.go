package mcp

import (
	"context"
	"encoding/json"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell/core"
)

// MaxBatchMessages is the most messages one JSON-RPC batch may carry (batches
// exist only in protocol 2025-03-26). A longer batch is refused whole with
// one -32600 invalid-request error before any of it runs.
const MaxBatchMessages = 20

// MaxBatchResponseBytes bounds the answers of one batch. Once the answers
// given so far reach it, every request of the batch that has not run yet is
// answered with a REQUEST_TOO_LARGE error instead of running.
const MaxBatchResponseBytes = 4 << 20

// batchAnswers counts the bytes a batch's answers have taken so far. Its
// lock runs the batch's requests one at a time: a batch costs the server no
// more concurrency than one request, and the bound is checked before each.
type batchAnswers struct {
	mu    sync.Mutex
	bytes int64
}

// boundBatchAnswers is the receiving middleware that enforces
// MaxBatchResponseBytes on the requests of a batch. A lone request is not
// counted: its answer is bounded by what a single tool returns. The SDK
// would run a batch's requests concurrently; here they run one after
// another, so the answers pass the bound by at most one answer.
func (h *handler) boundBatchAnswers(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		ri := requestInfoFrom(ctx)
		if ri == nil || ri.batch == nil {
			return next(ctx, method, req)
		}
		ri.batch.mu.Lock()
		defer ri.batch.mu.Unlock()
		if ri.batch.bytes >= MaxBatchResponseBytes {
			return nil, h.rpcError(ctx, core.Errorf(core.CodeRequestTooLarge,
				"this batch's answers already take %d bytes (the bound is 4 MiB), so this %s did not run; send it again in a new request", ri.batch.bytes, method))
		}
		res, err := next(ctx, method, req)
		if err != nil {
			ri.batch.bytes += int64(len(err.Error()))
			return res, err
		}
		b, _ := json.Marshal(res)
		ri.batch.bytes += int64(len(b))
		return res, err
	}
}
