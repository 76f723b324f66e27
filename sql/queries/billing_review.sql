-- name: TopupSetPaymentRef :exec
-- Records the processor's payment of a completed top-up session (a webhook
-- lookup: the session names the top-up).
UPDATE topups
SET payment_ref = @payment_ref
WHERE processor_session_id = @processor_session_id AND state = 'completed' AND payment_ref = '';

-- name: TopupGetByPaymentRef :one
-- The top-up a processor's payment paid (a webhook lookup).
SELECT id, workspace_id, mode, cents
FROM topups
WHERE payment_ref = @payment_ref AND payment_ref <> '';

-- name: CheckoutGetBySessionInWorkspaceForUpdate :one
-- A workspace's checkout by its processor session, locked (the sandbox's
-- payment page, which a signed-in person of the workspace opens).
SELECT *
FROM checkouts
WHERE workspace_id = @workspace_id AND processor_session_id = @processor_session_id
FOR UPDATE;
