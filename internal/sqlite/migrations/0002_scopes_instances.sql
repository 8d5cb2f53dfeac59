-- Snapshot scopes: reads use the newest snapshot of each scope, not of
-- each source, so that importing AWS eu-west-1 after us-east-1 (or
-- SkyPilot's lambda file after its aws file) no longer hides the first.
-- A scope is the source, its providers and, for sources published per
-- region, its regions (sqlite.ScopeOf). Existing snapshots get theirs
-- computed from their stored offers and bands when the database is opened
-- (the rows left with an empty scope here).
ALTER TABLE snapshots ADD COLUMN scope TEXT NOT NULL DEFAULT '';
CREATE INDEX snapshots_by_scope ON snapshots (scope, id);

-- Machines an import describes (GPU name and count, vCPUs, memory), one
-- row per instance type per snapshot; reads add the instance types the
-- curated catalog lacks. Numbers are exact decimal text.
CREATE TABLE instances (
    snapshot_id    INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    provider       TEXT    NOT NULL,
    instance_type  TEXT    NOT NULL,
    gpu_name       TEXT    NOT NULL,
    gpu_count      TEXT    NOT NULL,
    gpu_memory_gib TEXT    NOT NULL,          -- one GPU's, '0' when unknown
    vcpu           TEXT    NOT NULL,
    memory_gib     TEXT    NOT NULL,
    source_kind    TEXT    NOT NULL,
    source_ref     TEXT    NOT NULL,
    as_of          TEXT    NOT NULL,
    PRIMARY KEY (snapshot_id, provider, instance_type)
);

-- A compact copy of each snapshot's offers (columnar, gob-encoded, a
-- dictionary of strings and integer decimals), written with the snapshot:
-- reads decode one blob per scope instead of scanning and parsing every
-- offer row. Snapshots without one (stored before, or with a figure the
-- packed form cannot hold) are read from their rows.
CREATE TABLE snapshot_packs (
    snapshot_id INTEGER PRIMARY KEY REFERENCES snapshots (id) ON DELETE CASCADE,
    format      INTEGER NOT NULL,
    offers      BLOB    NOT NULL
);
