-- name: BalanceEnsure :exec
-- Creates a workspace's zero balance for a mode when it has none yet.
INSERT INTO balances (workspace_id, mode, cents, updated_at)
VALUES (@workspace_id, @mode, 0, @updated_at)
ON CONFLICT (workspace_id, mode) DO NOTHING;

-- name: BalanceGetForUpdate :one
-- Locks the balance for the transaction: every ledger insert of a workspace
-- and mode takes this lock first, so money moves are serialised.
SELECT cents
FROM balances
WHERE workspace_id = @workspace_id AND mode = @mode
FOR UPDATE;

-- name: BalanceGet :one
SELECT cents
FROM balances
WHERE workspace_id = @workspace_id AND mode = @mode;

-- name: BalanceAdd :one
-- Adds delta (signed) to a locked balance; the CHECK refuses a negative result.
UPDATE balances
SET cents = cents + @delta, updated_at = @updated_at
WHERE workspace_id = @workspace_id AND mode = @mode
RETURNING cents;

-- name: LedgerEntryInsert :exec
INSERT INTO ledger_entries (id, workspace_id, mode, kind, cents, send_id, campaign_id, topup_id, note, created_at)
VALUES (@id, @workspace_id, @mode, @kind, @cents, sqlc.narg(send_id), sqlc.narg(campaign_id), sqlc.narg(topup_id), @note, @created_at);

-- name: LedgerEntryList :many
-- Newest first.
SELECT id, kind, cents, send_id, campaign_id, note, created_at
FROM ledger_entries
WHERE workspace_id = @workspace_id AND mode = @mode
ORDER BY seq DESC
LIMIT @row_limit;

-- name: LedgerSum :one
SELECT COALESCE(sum(cents), 0)::bigint
FROM ledger_entries
WHERE workspace_id = @workspace_id AND mode = @mode;

-- name: LedgerEntryGetDebit :one
-- The debit of a gift, if any.
SELECT id, workspace_id, mode, cents, campaign_id
FROM ledger_entries
WHERE send_id = @send_id AND kind = 'debit';

-- name: LedgerCreditedForSend :one
-- How much has been credited back for a gift so far.
SELECT COALESCE(sum(cents), 0)::bigint
FROM ledger_entries
WHERE send_id = @send_id AND kind = 'credit';

-- name: TopupInsert :one
-- Inserts a top-up. With an idempotency key already used in the workspace
-- it inserts nothing and returns no row (the caller reads the existing one);
-- a concurrent insert with the same key waits for the first to commit.
INSERT INTO topups (id, workspace_id, mode, cents, idempotency_key, processor, processor_session_id,
    processor_url, state, created_by, created_at)
VALUES (@id, @workspace_id, @mode, @cents, @idempotency_key, @processor, @processor_session_id,
    @processor_url, 'created', @created_by, @created_at)
ON CONFLICT (workspace_id, idempotency_key) DO NOTHING
RETURNING id;

-- name: TopupSetSession :execrows
-- Records the processor's session on a top-up still pending (processor
-- 'pending'); a top-up that has one already keeps it (no row changes).
UPDATE topups
SET processor = @processor, processor_session_id = @processor_session_id, processor_url = @processor_url
WHERE id = @id AND processor = 'pending';

-- name: TopupDeletePending :execrows
-- Removes a top-up still pending (its processor refused to open a session).
DELETE FROM topups
WHERE id = @id AND processor = 'pending';

-- name: TopupGetByIdempotencyKey :one
SELECT *
FROM topups
WHERE workspace_id = @workspace_id AND idempotency_key = @idempotency_key;

-- name: TopupGetBySession :one
SELECT *
FROM topups
WHERE processor_session_id = @processor_session_id;

-- name: TopupGetBySessionForUpdate :one
-- Locks the top-up: its completion is decided under this lock.
SELECT *
FROM topups
WHERE processor_session_id = @processor_session_id
FOR UPDATE;

-- name: TopupComplete :execrows
UPDATE topups
SET state = 'completed', completed_at = @completed_at
WHERE id = @id AND state = 'created';

-- name: LedgerDebitMany :exec
-- One debit entry per gift (of a group commit, or one auto-approval), in
-- the order given (the arrays are zipped), and their sum taken off the
-- balance, which the caller has locked (ledger.DebitMany), in the same
-- statement: the balance stays the sum of its ledger, and its CHECK
-- refuses a negative result. cents are negative.
WITH entries AS (
    INSERT INTO ledger_entries (id, workspace_id, mode, kind, cents, send_id, campaign_id, note, created_at)
    SELECT unnest(@ids::text[]), @workspace_id::text, @mode::text, 'debit', unnest(@cents::bigint[]),
           unnest(@send_ids::text[]), unnest(@campaign_ids::text[]), unnest(@notes::text[]), @created_at::timestamptz
    RETURNING cents
)
UPDATE balances
SET cents = balances.cents + (SELECT sum(e.cents) FROM entries e), updated_at = @created_at::timestamptz
WHERE balances.workspace_id = @workspace_id::text AND balances.mode = @mode::text;
