-- name: OutcomeInsert :one
-- A report, unless one with the same external ID and source exists in the
-- workspace (then no row: read it with OutcomeGetByExternal).
INSERT INTO send_outcomes (workspace_id, send_id, outcome, source, external_event_id, occurred_at, created_at)
VALUES (@workspace_id, @send_id, @outcome, @source, @external_event_id, @occurred_at, @created_at)
ON CONFLICT (workspace_id, source, external_event_id) WHERE external_event_id <> '' DO NOTHING
RETURNING *;

-- name: OutcomeGetByExternal :one
SELECT *
FROM send_outcomes
WHERE workspace_id = @workspace_id AND source = @source AND external_event_id = @external_event_id;

-- name: SendSetOutcome :exec
-- The gift's current outcome becomes the report's unless a report that
-- occurred later is already current (a tie goes to the newer report).
UPDATE sends
SET outcome = @outcome, outcome_occurred_at = @occurred_at, updated_at = @updated_at
WHERE id = @id AND (outcome_occurred_at IS NULL OR outcome_occurred_at <= @occurred_at);

-- name: CampaignResults :one
-- A campaign's delivered gifts and reported outcomes; cancelled gifts count
-- nowhere. Its gifts and money are gift.Totals (SendMoneyByCampaign).
SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
       count(*) FILTER (WHERE status <> 'cancelled' AND outcome IN ('replied', 'meeting_booked', 'meeting_held'))::int AS replied,
       count(*) FILTER (WHERE status <> 'cancelled' AND outcome IN ('meeting_booked', 'meeting_held'))::int AS meetings,
       count(*) FILTER (WHERE status <> 'cancelled' AND outcome = 'meeting_held')::int AS meetings_held
FROM sends
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id;
-- declined gifts commit nothing.
SELECT count(*) FILTER (WHERE status <> 'cancelled')::int AS total_sends,
       count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled,
       count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
       count(*) FILTER (WHERE status <> 'cancelled' AND outcome IN ('replied', 'meeting_booked', 'meeting_held'))::int AS replied,
       count(*) FILTER (WHERE status <> 'cancelled' AND outcome IN ('meeting_booked', 'meeting_held'))::int AS meetings,
       count(*) FILTER (WHERE status <> 'cancelled' AND outcome = 'meeting_held')::int AS meetings_held,
       coalesce(sum(total_cents) FILTER (WHERE status NOT IN ('cancelled', 'declined')), 0)::bigint AS committed_cents
FROM sends
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id;
