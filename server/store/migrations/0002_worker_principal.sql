-- 0002: a worker row belongs to the principal (bearer token name) that registered it, so another
-- credential can neither act as that worker nor take its GPUs while it is online (issue 14).
-- Rows registered before this migration have '' and are bound by their next registration.
ALTER TABLE worker ADD COLUMN principal text NOT NULL DEFAULT '';
