package rest

import "net/http"

// toolHandler serves a tool's route: merge path, query and body into the
// arguments, call the tool, write {data: out} with the route's status.
func (s *server) toolHandler(op *operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		args, err := op.bind.args(r, bodyFrom(r.Context()))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		out, err := op.tool.Call(r.Context(), principalFrom(r), args)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.respond(w, r, op.Status, out)
	}
}
