package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// queueInput is the query of GET /queue and GET /queue/skipped.
type queueInput struct {
	CampaignID string `json:"campaignId,omitempty" jsonschema:"only this playbook's people; omit for the whole workspace" schema:"maxLength=100"`
}

// queueOperations are the queue's REST reads: GET /queue, list_queue's
// REST form, which returns the whole queue with no paging (the tool pages
// it over MCP), and GET /queue/skipped, which has no tool of its own.
func queueOperations() ([]operation, error) {
	input, err := tools.SchemaFor[queueInput]()
	if err != nil {
		return nil, fmt.Errorf("rest: queue input schema: %w", err)
	}
	items, err := payloadSchema[[]core.QueueItem]()
	if err != nil {
		return nil, fmt.Errorf("rest: queue schema: %w", err)
	}
	skipped, err := payloadSchema[[]core.SkippedItem]()
	if err != nil {
		return nil, fmt.Errorf("rest: skipped schema: %w", err)
	}
	return []operation{
		{
			ID:      "list_queue",
			Method:  http.MethodGet,
			Path:    "/queue",
			Summary: "List the approval queue",
			Description: "The people waiting on the workspace's active playbooks for a signed-in owner or admin, in queue order, optionally for one playbook (campaignId); " +
				"all of them, with no paging (MCP's list_queue pages). Each item's blockers say what stops approval now; the balance, monthly budgets and playbook limits " +
				"are shared in queue order. Hand approvalUrl to an owner or admin.",
			Status: http.StatusOK,
			Access: accessRequired,
			Input:  input,
			Data:   items,
			Out:    reflect.TypeFor[[]core.QueueItem](),
			handle: (*server).queueHandler,
		},
		{
			ID:      "list_queue_skipped",
			Method:  http.MethodGet,
			Path:    "/queue/skipped",
			Summary: "The people skipped in the queue, newest first",
			Description: "The people an owner or admin skipped on the workspace's playbooks, optionally for one playbook (campaignId), newest skip first, " +
				"with the reason given. A skipped person is refused by a new add (RECIPIENT_SKIPPED) until unskipped.",
			Status: http.StatusOK,
			Access: accessRequired,
			Input:  input,
			Data:   skipped,
			Out:    reflect.TypeFor[[]core.SkippedItem](),
			handle: (*server).skippedHandler,
		},
	}, nil
}

// queueArgs binds the campaignId query of a queue read.
func (s *server) queueArgs(op *operation, r *http.Request) (queueInput, error) {
	args, err := op.bind.args(r, nil)
	if err != nil {
		return queueInput{}, err
	}
	var in queueInput
	if err := json.Unmarshal(args, &in); err != nil {
		return queueInput{}, core.Internal(err)
	}
	return in, nil
}

// queueHandler serves GET /queue.
func (s *server) queueHandler(op *operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		in, err := s.queueArgs(op, r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		items, err := s.app.Queue(r.Context(), principalFrom(r), in.CampaignID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.respond(w, r, op.Status, items)
	}
}

// skippedHandler serves GET /queue/skipped.
func (s *server) skippedHandler(op *operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		in, err := s.queueArgs(op, r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		items, err := s.app.SkippedPeople(r.Context(), principalFrom(r), in.CampaignID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.respond(w, r, op.Status, items)
	}
}
