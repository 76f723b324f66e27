-- Reports (get_report): a workspace's gifts of one mode created in a range.

-- name: ReportCampaigns :many
-- Per campaign, the gifts created in [from_at, to_at) by status, payment,
-- whether their cost came back, and reported outcome; gift.Totals counts
-- them (docs/decisions/0119-money-after-a-decline.md).
SELECT s.campaign_id, c.name AS campaign_name, s.status, s.funded_by, (s.credited OR s.refunded)::boolean AS money_back,
       count(*)::int AS gifts,
       coalesce(sum(s.total_cents), 0)::bigint AS cents,
       count(*) FILTER (WHERE s.outcome IN ('replied', 'meeting_booked', 'meeting_held'))::int AS replies,
       count(*) FILTER (WHERE s.outcome IN ('meeting_booked', 'meeting_held'))::int AS meetings
FROM send_money s
JOIN campaigns c ON c.id = s.campaign_id
WHERE s.workspace_id = @workspace_id AND s.mode = @mode
  AND s.created_at >= @from_at AND s.created_at < @to_at
  AND (sqlc.narg(campaign_id)::text IS NULL OR s.campaign_id = sqlc.narg(campaign_id)::text)
GROUP BY s.campaign_id, c.name, s.status, s.funded_by, 5
ORDER BY c.name, s.campaign_id, s.status, s.funded_by, 5;

-- name: ReportWeeks :many
-- Per ISO week (Monday, UTC) of the range, the gifts that are not
-- cancelled and how many of them have a reported meeting.
SELECT to_char(date_trunc('week', s.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week,
       count(*)::int AS gifts,
       count(*) FILTER (WHERE s.outcome IN ('meeting_booked', 'meeting_held'))::int AS meetings
FROM sends s
WHERE s.workspace_id = @workspace_id AND s.mode = @mode AND s.status <> 'cancelled'
  AND s.created_at >= @from_at AND s.created_at < @to_at
  AND (sqlc.narg(campaign_id)::text IS NULL OR s.campaign_id = sqlc.narg(campaign_id)::text)
GROUP BY 1
ORDER BY 1;
