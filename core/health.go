package core

import "context"

// Ready reports whether the database answers, for /readyz. It returns
// SERVICE_UNAVAILABLE when it does not.
func (a *Kernel) Ready(ctx context.Context) error {
	if err := a.DB.Ping(ctx); err != nil {
		return &Error{Code: CodeUnavailableRead, Message: "the database is unavailable", Cause: err}
	}
	return nil
}
