-- name: CheckoutItemFirstPending :one
-- The first position of a checkout that launch has not prepared yet.
SELECT position
FROM checkout_items
WHERE workspace_id = @workspace_id AND checkout_id = @checkout_id AND send_id IS NULL AND error_code = ''
ORDER BY position
LIMIT 1;
