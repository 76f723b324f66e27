-- name: BalanceRead :one
-- The balance in one round trip (get_balance, and an add's answer while a
-- person waits): the balance of a workspace in a mode (0 without a row), its
-- active playbooks' gifts and auto-approve rules, and how many people wait
-- (waiting or scheduled) for each gift on them, as JSON arrays of
-- {productId, autoApprove} and {productId, people}; lowBalance prices them.
SELECT coalesce((SELECT b.cents FROM balances b WHERE b.workspace_id = @workspace_id AND b.mode = @mode), 0)::bigint AS cents,
       coalesce((SELECT jsonb_agg(jsonb_build_object('productId', c.product_id, 'autoApprove', c.auto_approve))
                 FROM campaigns c
                 WHERE c.workspace_id = @workspace_id AND c.mode = 'always_on' AND c.status = 'active'), '[]')::jsonb AS playbooks,
       coalesce((SELECT jsonb_agg(jsonb_build_object('productId', w.product_id, 'people', w.people))
                 FROM (SELECT c.product_id, count(*) AS people
                       FROM recipients r
                       JOIN campaigns c ON c.id = r.campaign_id
                       WHERE r.workspace_id = @workspace_id
                         AND r.approval_state IN ('waiting', 'scheduled')
                         AND c.mode = 'always_on' AND c.status = 'active'
                       GROUP BY c.product_id) w), '[]')::jsonb AS waiting;
