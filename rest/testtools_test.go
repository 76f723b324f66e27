package rest_test

import (
	"context"
	"errors"
	"net/http"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// Test-only tools, registered next to the real registry so that the request
// rules are exercised through the same derivation as every real route: a
// POST with a body, a POST without body fields, a DELETE, a GET with typed
// query parameters, a gift-link distribution route and failures of every kind.

type noteIn struct {
	ID    string `json:"id" jsonschema:"the note's ID" schema:"minLength=1,maxLength=40"`
	Note  string `json:"note" jsonschema:"the note" schema:"maxLength=20"`
	Count int    `json:"count,omitempty" jsonschema:"how many" schema:"minimum=1,maximum=5"`
}

type noteOut struct {
	ID    string `json:"id"`
	Note  string `json:"note"`
	Count int    `json:"count"`
}

type pingIn struct {
	ID string `json:"id"`
}

type pingOut struct {
	ID     string `json:"id"`
	Pinged bool   `json:"pinged"`
}

type thingsIn struct {
	IDs    []string       `json:"ids,omitempty" jsonschema:"IDs to list"`
	Counts []int          `json:"counts,omitempty" jsonschema:"counts"`
	Flag   bool           `json:"flag,omitempty" jsonschema:"a flag"`
	Ratio  float64        `json:"ratio,omitempty" jsonschema:"a ratio"`
	Limit  int            `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100"`
	Max    *int64         `json:"max,omitempty" jsonschema:"an optional bound"`
	Filter map[string]int `json:"filter,omitempty" jsonschema:"a JSON object filter"`
}

type removeIn struct {
	ID     string `json:"id"`
	Reason string `json:"reason,omitempty" schema:"maxLength=50"`
}

type distributionIn struct {
	ID string `json:"id"`
}

type failIn struct {
	Kind string `json:"kind" schema:"enum=panic|plain|rate|unknown|human"`
}

type empty struct{}

// testTools are the test-only tools.
func testTools() []tools.Tool {
	return []tools.Tool{
		tools.Define("save_test_note", "Saves a note. Test only.", tools.ScopeWrite, core.ActEditDrafts,
			func(_ context.Context, _ core.Principal, in noteIn) (noteOut, error) {
				return noteOut(in), nil
			}, tools.REST(http.MethodPost, "/test-notes/{id}", http.StatusCreated)),
		tools.Define("ping_test_item", "Pings an item; takes no body. Test only.", tools.ScopeWrite, core.ActEditDrafts,
			func(_ context.Context, _ core.Principal, in pingIn) (pingOut, error) {
				return pingOut{ID: in.ID, Pinged: true}, nil
			}, tools.REST(http.MethodPost, "/test-items/{id}/ping", http.StatusOK)),
		tools.Define("list_test_things", "Echoes typed query parameters. Test only.", tools.ScopeRead, core.ActRead,
			func(_ context.Context, _ core.Principal, in thingsIn) (thingsIn, error) {
				return in, nil
			}, tools.REST(http.MethodGet, "/test-things", http.StatusOK)),
		tools.Define("remove_test_thing", "Removes a thing. Test only.", tools.ScopeWrite, core.ActEditDrafts,
			func(_ context.Context, _ core.Principal, in removeIn) (removeIn, error) {
				return in, nil
			}, tools.REST(http.MethodDelete, "/test-things/{id}", http.StatusOK)),
		tools.Define("get_test_distribution", "A gift-link distribution route. Test only.", tools.ScopeLinks, core.ActReadGiftLinks,
			func(_ context.Context, _ core.Principal, in distributionIn) (distributionIn, error) {
				return in, nil
			}, tools.REST(http.MethodGet, "/campaigns/{id}/distribution/test-echo", http.StatusOK, tools.Connections())),
		tools.Define("fail_test", "Fails as asked. Test only.", tools.ScopeRead, core.ActRead,
			func(_ context.Context, _ core.Principal, in failIn) (empty, error) {
				switch in.Kind {
				case "panic":
					panic("test panic: secret detail")
				case "plain":
					return empty{}, errors.New("secret database detail")
				case "rate":
					return empty{}, &core.Error{Code: core.CodeRateLimit, Message: "too many requests", RetryAfterMs: 1500}
				case "unknown":
					return empty{}, &core.Error{Code: "NOT_A_CODE", Message: "secret unknown"}
				}
				return empty{}, &core.Error{Code: core.CodeHumanApprovalRequired, Message: "a person must do this"}
			}, tools.REST(http.MethodGet, "/test-failures/{kind}", http.StatusOK)),
	}
}
