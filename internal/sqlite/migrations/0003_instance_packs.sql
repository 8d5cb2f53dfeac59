-- A compact copy of the machines each snapshot describes (the instances
-- rows), next to its packed offers: reads decode one blob per scope
-- instead of stepping through thousands of rows. NULL for snapshots stored
-- before, or whose figures the packed form cannot hold: their rows are read.
ALTER TABLE snapshot_packs ADD COLUMN instances BLOB;
