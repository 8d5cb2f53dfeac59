-- A validated form of the imported offers that reads overlay on the
-- curated catalog, kept per set of newest snapshots and catalog version
-- (key), one row per GPU model (gpu; '' is the row that says whether the
-- form is usable): a read about a few GPU models decodes only their rows,
-- cheapest offers first. Derived data, written by reads: removing every
-- row loses nothing (the next read writes them again). Imports, deletions
-- and rollbacks clear the table.
CREATE TABLE overlay_cache (
    key  TEXT NOT NULL,
    gpu  TEXT NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (key, gpu)
);
