-- Snapshots: one per import (a file or a live fetch of one source).
CREATE TABLE snapshots (
    id             INTEGER PRIMARY KEY,
    source         TEXT    NOT NULL,
    fetched_at     TEXT    NOT NULL,          -- RFC 3339, UTC
    checksum       TEXT    NOT NULL,          -- SHA-256 of the imported bytes
    ref            TEXT    NOT NULL DEFAULT '',
    offers         INTEGER NOT NULL,
    bands          INTEGER NOT NULL,
    skipped        INTEGER NOT NULL,
    skipped_detail TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX snapshots_by_source ON snapshots (source, id);

-- Offers as imported, one row per offer per snapshot. Money is exact decimal text.
CREATE TABLE offers (
    snapshot_id   INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    provider      TEXT    NOT NULL,
    instance_type TEXT    NOT NULL,
    region        TEXT    NOT NULL,
    billing       TEXT    NOT NULL,
    hourly        TEXT    NOT NULL,
    upfront       TEXT    NOT NULL,
    monthly       TEXT    NOT NULL,
    currency      TEXT    NOT NULL,
    source_kind   TEXT    NOT NULL,
    source_ref    TEXT    NOT NULL,
    as_of         TEXT    NOT NULL,          -- YYYY-MM-DD
    PRIMARY KEY (snapshot_id, provider, instance_type, region, billing)
);
CREATE INDEX offers_by_offer ON offers (provider, instance_type, region, billing, snapshot_id);

-- Interruption-frequency bands (Spot Advisor), per snapshot.
CREATE TABLE bands (
    snapshot_id   INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    provider      TEXT    NOT NULL,
    instance_type TEXT    NOT NULL,
    region        TEXT    NOT NULL,
    band          TEXT    NOT NULL,
    low_pct       TEXT    NOT NULL,
    high_pct      TEXT    NOT NULL,
    savings_pct   TEXT    NOT NULL,
    source_ref    TEXT    NOT NULL,
    as_of         TEXT    NOT NULL,
    PRIMARY KEY (snapshot_id, provider, instance_type, region)
);

-- The user's saved scenarios (job files, plan files, usage profiles).
CREATE TABLE scenarios (
    name     TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,                   -- recommend, tco, cost
    body     TEXT NOT NULL,
    saved_at TEXT NOT NULL
);
