-- 0003: warpwatch_readonly, the role dashboards read with (Grafana's PostgreSQL datasource,
-- deploy/grafana/). SELECT on every table of this schema, now and later, and nothing else.
--
-- Roles are cluster-wide. The role is created NOLOGIN, read-only by default and with a statement
-- timeout; an administrator turns it into a login for Grafana:
--   ALTER ROLE warpwatch_readonly WITH LOGIN PASSWORD '...';
-- A server whose database user may not create roles (neither CREATEROLE nor superuser) leaves the
-- creation to an administrator: create the role first (CREATE ROLE warpwatch_readonly NOLOGIN)
-- and this migration grants to it; without it the migration only raises a NOTICE (the grants can
-- be given later by hand, see docs/metrics.md "Grafana's database role").
DO $$
DECLARE
  can_create boolean;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'warpwatch_readonly') THEN
    SELECT rolsuper OR rolcreaterole INTO can_create FROM pg_roles WHERE rolname = current_user;
    IF NOT coalesce(can_create, false) THEN
      RAISE NOTICE 'warpwatch_readonly not created: % may not create roles', current_user;
      RETURN;
    END IF;
    BEGIN
      CREATE ROLE warpwatch_readonly NOLOGIN;
      ALTER ROLE warpwatch_readonly SET default_transaction_read_only = on;
      ALTER ROLE warpwatch_readonly SET statement_timeout = '30s';
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;  -- a migration of another database in this cluster created it at the same moment
    END;
  END IF;
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO warpwatch_readonly', current_schema());
  EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO warpwatch_readonly',
                 current_schema());
  -- Tables later migrations create (as this same user) are readable too.
  EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT ON TABLES TO warpwatch_readonly',
                 current_schema());
END
$$;
