-- 0021 (issue 27): what the fleet view compared of each run (server/analysis/fleet_pass.h). The
-- GPU health verdict counted a run as judged when its night had enough GPUs, but the fleet view
-- compares a case only once the noise model knows the case's between-run spread (a new fleet's
-- first two nights, a new case's first runs): such runs read "healthy" without having been
-- looked at. The fleet view judges a night's early runs during its later runs' analyses, so a row
-- grows as the night completes: the largest count of cases compared, and the families compared.
CREATE TABLE fleet_judged_run (
  run_id   bigint PRIMARY KEY REFERENCES run (id) ON DELETE CASCADE,
  cases    integer NOT NULL CHECK (cases >= 0),
  families text[] NOT NULL DEFAULT '{}'
);
