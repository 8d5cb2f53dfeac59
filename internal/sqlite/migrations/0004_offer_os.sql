-- The operating system an offer's price is for: '' (Linux, the provider's
-- default image) or 'windows' (licence included). It is part of an offer's
-- key, so a Windows rate and the Linux rate of one instance type, region and
-- billing model are two rows. Existing rows are Linux prices (every importer
-- skipped Windows until now) and keep every figure.
CREATE TABLE offers_os (
    snapshot_id   INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    provider      TEXT    NOT NULL,
    instance_type TEXT    NOT NULL,
    region        TEXT    NOT NULL,
    billing       TEXT    NOT NULL,
    os            TEXT    NOT NULL DEFAULT '',
    hourly        TEXT    NOT NULL,
    upfront       TEXT    NOT NULL,
    monthly       TEXT    NOT NULL,
    currency      TEXT    NOT NULL,
    source_kind   TEXT    NOT NULL,
    source_ref    TEXT    NOT NULL,
    as_of         TEXT    NOT NULL,          -- YYYY-MM-DD
    PRIMARY KEY (snapshot_id, provider, instance_type, region, billing, os)
);
INSERT INTO offers_os (snapshot_id, provider, instance_type, region, billing, os, hourly, upfront, monthly, currency, source_kind, source_ref, as_of)
    SELECT snapshot_id, provider, instance_type, region, billing, '', hourly, upfront, monthly, currency, source_kind, source_ref, as_of FROM offers;
DROP TABLE offers;
ALTER TABLE offers_os RENAME TO offers;
CREATE INDEX offers_by_offer ON offers (provider, instance_type, region, billing, os, snapshot_id);
