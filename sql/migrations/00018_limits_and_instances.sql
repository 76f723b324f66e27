-- +goose Up
-- Rate limits (docs/decisions/0094-rate-limits.md). One row per workspace
-- and counted bucket (requests, artwork_reads, artwork_writes,
-- assistant_tool_calls): the fixed clock minute it counts and the units
-- admitted in it. Every instance sharing the database counts here, so a
-- limit holds across them exactly; the row lock of the upsert orders
-- concurrent requests.
CREATE TABLE rate_windows (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    bucket       text NOT NULL CHECK (bucket IN ('requests', 'artwork_reads', 'artwork_writes', 'assistant_tool_calls')),
    window_start timestamptz NOT NULL,
    used         integer NOT NULL CHECK (used >= 0),
    admitted     boolean NOT NULL,
    PRIMARY KEY (workspace_id, bucket)
);

-- rate_charge counts units against a workspace's bucket in the clock minute
-- of p_at (NULL: the database's clock, now()), admitting them only when the
-- minute's count stays within p_limit (a refused charge counts nothing). It
-- answers whether they were admitted, the minute's count after the charge
-- and the milliseconds left in the minute. An empty bucket or no units
-- counts nothing and answers (true, 0, 0). The authentication statements
-- call it, so counting adds no round trip to a request.
-- +goose StatementBegin
CREATE FUNCTION rate_charge(p_workspace text, p_bucket text, p_units integer, p_limit integer, p_at timestamptz)
RETURNS TABLE (rate_admitted boolean, rate_used integer, rate_reset_ms bigint)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    t timestamptz := coalesce(p_at, now());
    w timestamptz := date_trunc('minute', coalesce(p_at, now()), 'UTC');
BEGIN
    IF p_bucket = '' OR p_units <= 0 OR p_workspace IS NULL THEN
        RETURN QUERY SELECT true, 0, 0::bigint;
        RETURN;
    END IF;
    RETURN QUERY
    INSERT INTO rate_windows AS r (workspace_id, bucket, window_start, used, admitted)
    VALUES (p_workspace, p_bucket, w, CASE WHEN p_units <= p_limit THEN p_units ELSE 0 END, p_units <= p_limit)
    ON CONFLICT (workspace_id, bucket) DO UPDATE SET
        window_start = w,
        used = CASE WHEN (CASE WHEN r.window_start = w THEN r.used ELSE 0 END) + p_units <= p_limit
                    THEN (CASE WHEN r.window_start = w THEN r.used ELSE 0 END) + p_units
                    ELSE (CASE WHEN r.window_start = w THEN r.used ELSE 0 END) END,
        admitted = (CASE WHEN r.window_start = w THEN r.used ELSE 0 END) + p_units <= p_limit
    RETURNING r.admitted, r.used,
        ceil(extract(epoch FROM (w + interval '1 minute' - t)) * 1000)::bigint;
END;
$$;
-- +goose StatementEnd

-- Several instances: each keeps the catalog in memory and LISTENs on
-- catalog_changed, so a new catalog version (an import by any process)
-- reaches every instance at once, not after its 60-second check.
-- +goose StatementBegin
CREATE FUNCTION catalog_state_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('catalog_changed', NEW.version::text);
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER catalog_state_notify AFTER INSERT OR UPDATE OF version ON catalog_state
    FOR EACH ROW EXECUTE FUNCTION catalog_state_notify();

-- +goose Down
DROP TRIGGER catalog_state_notify ON catalog_state;
DROP FUNCTION catalog_state_notify();
DROP FUNCTION rate_charge(text, text, integer, integer, timestamptz);
DROP TABLE rate_windows;
