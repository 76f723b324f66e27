package rest

import (
	"encoding/json"
	"net/http"

	"github.com/giftwell/giftwell/core"
)

// dataEnvelope is every JSON success body: {data: payload}.
type dataEnvelope struct {
	Data any `json:"data"`
}

// respond writes {data: payload} with status.
func (s *server) respond(w http.ResponseWriter, r *http.Request, status int, payload any) {
	body, err := json.Marshal(dataEnvelope{Data: payload})
	if err != nil {
		s.fail(w, r, core.Internal(err))
		return
	}
	writeBody(w, status, body)
}
