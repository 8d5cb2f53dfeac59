-- What a provider's API last said about capacity for an offer (Lambda's
-- regions with capacity, RunPod's stock status, a Vast.ai offer existing):
-- '' (no reading: every row stored before, and every price-list import),
-- 'available', 'low' or 'none', and when it was seen (RFC 3339, UTC; '' when
-- no reading). Existing rows keep every figure and read as before.
ALTER TABLE offers ADD COLUMN stock TEXT NOT NULL DEFAULT '';
ALTER TABLE offers ADD COLUMN stock_seen TEXT NOT NULL DEFAULT '';
