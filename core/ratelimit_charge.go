package core

import (
	"context"

	"github.com/giftwell/giftwell/sql/db"
)

// ChargeRate counts units against workspaceID's bucket in its own
// statement, for counts authentication cannot carry: the tool calls of a
// request to the assistant endpoint. It returns the counted charge, and
// RATE_LIMIT (nothing counted) when the units would take the workspace over
// the bucket's limit this minute; or INTERNAL_ERROR.
func (k *Kernel) ChargeRate(ctx context.Context, workspaceID string, bucket RateBucket, units int) (*RateCharge, error) {
	c := &RateCharge{Bucket: bucket, Units: units}
	ctx = WithRateCharge(ctx, c)
	b, n, limit, at := k.RateChargeArgs(ctx)
	row, err := db.New(k.DB).RateCharge(ctx, db.RateChargeParams{WorkspaceID: workspaceID, Bucket: b, Units: n, LimitPerMinute: limit, At: at})
	if err != nil {
		return c, Internal(err)
	}
	return c, RateCounted(ctx, row.Admitted, row.Used, row.ResetMs)
}
