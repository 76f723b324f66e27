package mcp

import "net/http"

// NewSDKOnlyHandler is NewHandler with fastCall turned off: every request
// goes to the SDK, so tests can compare the two answers.
func NewSDKOnlyHandler(cfg Config) http.Handler {
	h := NewHandler(cfg).(*handler)
	h.sdkOnly = true
	return h
}
