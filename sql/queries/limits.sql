-- name: RateCharge :one
-- Counts units against a workspace's bucket outside authentication (the
-- assistant endpoint's tool calls, a batch's further messages).
SELECT rc.rate_admitted::boolean AS admitted, rc.rate_used::integer AS used, rc.rate_reset_ms::bigint AS reset_ms
FROM rate_charge(@workspace_id::text, @bucket::text, @units::integer, @limit_per_minute::integer, sqlc.narg(at)::timestamptz) rc;
