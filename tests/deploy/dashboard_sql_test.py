#!/usr/bin/env python3
# Runs every SQL query of deploy/grafana/dashboards against a real PostgreSQL, as Grafana would
# (ctest deploy.dashboard_sql):
# - starts a throwaway cluster (initdb + pg_ctl in a temp dir, Unix socket only), applies
#   server/store/migrations/*.sql in order, one transaction each, as a CREATEROLE owner;
# - loads tests/fixtures/h100_nightly.json (144 measurements of one H100) as three runs on two
#   GPUs of two hosts, with one regression and one change point;
# - logs in as warpwatch_readonly (migration 0003) and runs each panel, variable and annotation
#   query with Grafana's $variables and macros ($__timeFilter, $__timeGroupAlias, ...) expanded:
#   each must succeed and return rows; time_series queries must return a "time" column;
# - checks the role cannot write.
# Exits 77 (ctest: skipped) with the reason when PostgreSQL's server binaries are absent.
import glob
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_files as df  # noqa: E402

FIXTURE = os.path.join(df.ROOT, "tests", "fixtures", "h100_nightly.json")
MODEL = "NVIDIA H100 80GB HBM3"
# Test values of the dashboards' variables (one case of the fixture).
VALUES = {"family": "memory.coalescing", "variant": "copy",
          "params": "block_size=256&n=16777216", "model": MODEL, "Hostname": "gpu-node-17"}
FROM_TS, TO_TS = "now() - interval '30 days'", "now() + interval '1 day'"


def skip(why):
    print("skipped: " + why)
    sys.exit(77)


def pg_bin():
    env = os.environ.get("WARPWATCH_PG_BIN")
    dirs = [env] if env else sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for d in dirs:
        if all(os.access(os.path.join(d, t), os.X_OK) for t in ("initdb", "pg_ctl", "postgres")):
            return d
    return None


class Cluster:
    """A throwaway PostgreSQL on a Unix socket in a temp dir (as an unprivileged user if root)."""

    def __init__(self, bindir):
        self.bindir = bindir
        self.dir = tempfile.mkdtemp(prefix="warpwatch-deploy-pg-")
        self.user = None
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                try:
                    self.user = pwd.getpwnam(name)
                    break
                except KeyError:
                    pass
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        self.psql = os.path.join(bindir, "psql")
        if not os.access(self.psql, os.X_OK):
            self.psql = shutil.which("psql")

    def _demote(self):
        if self.user is not None:
            os.setgid(self.user.pw_gid)
            os.setuid(self.user.pw_uid)

    def run_server_tool(self, args):
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       preexec_fn=self._demote, cwd=self.dir)

    def start(self):
        data = os.path.join(self.dir, "data")
        self.run_server_tool([os.path.join(self.bindir, "initdb"), "-D", data, "-U", "postgres",
                              "--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync"])
        opts = "-k %s -c listen_addresses='' -p 5432 -F" % self.dir
        self.run_server_tool([os.path.join(self.bindir, "pg_ctl"), "-D", data, "-o", opts, "-l",
                              os.path.join(self.dir, "log"), "-w", "start"])

    def stop(self):
        data = os.path.join(self.dir, "data")
        if os.path.exists(os.path.join(data, "postmaster.pid")):
            subprocess.run([os.path.join(self.bindir, "pg_ctl"), "-D", data, "-m", "immediate",
                            "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           preexec_fn=self._demote, cwd=self.dir)
        shutil.rmtree(self.dir, ignore_errors=True)

    def sql(self, text, user="postgres", db="postgres", single_tx=False, csv=False):
        """Runs SQL through psql; returns (ok, stdout, stderr)."""
        args = [self.psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", self.dir, "-p", "5432",
                "-U", user, "-d", db]
        if single_tx:
            args.append("-1")
        if csv:
            args.append("--csv")
        p = subprocess.run(args, input=text, capture_output=True, text=True)
        return p.returncode == 0, p.stdout, p.stderr


def lit(v):
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(float(v)) if isinstance(v, float) else str(v)
    return "'" + str(v).replace("'", "''") + "'"


def fixture_sql():
    """INSERTs: two workers with one H100 each, three runs (two nights on gpu-node-17, one on
    gpu-node-18), the fixture's measurements in each (the second night 5 % slower), a regression
    and the change point it makes."""
    fx = json.load(open(FIXTURE))
    dev = fx["environment"]["device"]
    out = []
    gpus = [("gpu-node-17", "w17", dev["uuid"]), ("gpu-node-18", "w18", "GPU-twin-0000")]
    for host, wid, uuid in gpus:
        out.append("INSERT INTO worker (id, hostname, version, last_seen) VALUES (%s, %s, '0.1.0', now());"
                   % (lit(wid), lit(host)))
        out.append("INSERT INTO device (uuid, worker_id, name, sm_count, info) VALUES (%s, %s, %s, 132, '{}');"
                   % (lit(uuid), lit(wid), lit(MODEL)))
    runs = [(1, gpus[0], "2 days", 1.0), (2, gpus[0], "1 day", 1.05), (3, gpus[1], "1 day", 1.0)]
    for run_id, (host, wid, uuid), ago, scale in runs:
        out.append(
            "INSERT INTO job (id, spec, state, max_attempts, device_uuid, created_at, started_at, finished_at)"
            " VALUES (%d, '{}', 'SUCCEEDED', 3, %s, now() - interval '%s' - interval '10 minutes',"
            " now() - interval '%s', now() - interval '%s' + interval '40 seconds');"
            % (run_id, lit(uuid), ago, ago, ago))
        out.append(
            "INSERT INTO run (id, job_id, worker_id, device_uuid, device_name, state, hostname,"
            " driver_version, started_at, finished_at) VALUES (%d, %d, %s, %s, %s, 'SUCCEEDED', %s,"
            " %s, now() - interval '%s', now() - interval '%s' + interval '40 seconds');"
            % (run_id, run_id, lit(wid), lit(uuid), lit(MODEL), lit(host),
               lit(fx["environment"]["driver_version"]), ago, ago))
        for m in fx["measurements"]:
            c, st, occ = m["case"], m.get("stats", {}), m.get("occupancy", {})
            status = m["status"].replace("POINT_STATUS_", "")
            cols = {
                "run_id": run_id, "case_canonical": c["canonical"], "family": c["family"],
                "variant": c["variant"], "params": json.dumps(c.get("params", {})),
                "series_id": c["canonical"] + "@" + MODEL, "kernel_name": m.get("kernel_name", ""),
                "status": status, "median_seconds": st.get("median", 0) * scale,
                "p10_seconds": st.get("p10", 0) * scale, "p90_seconds": st.get("p90", 0) * scale,
                "mean_seconds": st.get("mean", 0) * scale,
                "rel_stderr": st.get("rel_stderr", 0),
                "median_sm_clock_mhz": m.get("median_sm_clock_mhz", 0),
                "gbps": m.get("gbps", 0) / scale,
                "pct_of_peak_bandwidth": m.get("pct_of_peak_bandwidth", 0) / scale,
                "block_size": occ.get("block_size", 0),
                "registers_per_thread": occ.get("registers_per_thread", 0),
                "theoretical_occupancy": occ.get("theoretical", 0),
                "achieved_occupancy": occ.get("achieved"),
                "verified": bool(m.get("verified", False)), "doc": "{}",
            }
            out.append("INSERT INTO measurement (%s) VALUES (%s);" % (
                ", ".join(cols), ", ".join(lit(v) for v in cols.values())))
    case = "memory.coalescing/copy?block_size=256&n=16777216"
    out.append(
        "INSERT INTO regression (series_id, case_canonical, family, gpu_model, run_id,"
        " baseline_run_ids, baseline_median_seconds, new_median_seconds, change, method, state,"
        " detected_at) VALUES (%s, %s, 'memory.coalescing', %s, 2, '{1}', 4.9e-05, 5.15e-05,"
        " 0.05, 'robust_z', 'OPEN', now() - interval '1 day');"
        % (lit(case + "@" + MODEL), lit(case), lit(MODEL)))
    # Its incident (migration 0015), as the sweep writes it, with the finding's explanation.
    driver_change = "driver_version %s -> 590.44.01" % fx["environment"]["driver_version"]
    out.append(
        "INSERT INTO incident (id, kind, gpu_model, window_key, night, cause_key, cause_class,"
        " cause, findings, confirmed, cases, device_uuids, families, median_change, peers)"
        " VALUES (1, 'SLOWDOWN', %s, 'night:2026-01-01', '2026-01-01', %s, 'SOFTWARE', %s, 1, 1, 1,"
        " '{GPU-aaaa}', '{memory.coalescing}', 0.05, 2);"
        % (lit(MODEL), lit("software:" + driver_change), lit(driver_change)))
    out.append("UPDATE regression SET incident_id = 1, swept = true, explanation = %s::jsonb;"
               % lit(json.dumps(explanation_json(fx, driver_change))))
    # The detector's change point on the model series: the second night's level.
    out.append(
        "INSERT INTO change_point (series_id, device_uuid, run_id, at, median_before, median_after,"
        " relative_change, p_value, q_hat) VALUES (%s, '', 2, now() - interval '1 day', 4.9e-05,"
        " 5.15e-05, 0.05, 0.0004, 1.7);" % lit(case + "@" + MODEL))
    # The noise model of the nightly series (migration 0014): the model row and one GPU's.
    out.append(
        "INSERT INTO series_noise (series_id, device_uuid, sigma_relative, pairs, devices,"
        " min_detectable_change, baseline_runs) VALUES (%s, '', 0.0011, 40, 2, 0.012, 10),"
        " (%s, 'GPU-aaaa', 0.0013, 0, 0, 0.014, 10);" % (lit(case + "@" + MODEL),
                                                       lit(case + "@" + MODEL)))
    out.append("SELECT setval(pg_get_serial_sequence('job', 'id'), 10);")
    out.append("SELECT setval(pg_get_serial_sequence('run', 'id'), 10);")
    return "\n".join(out) + "\n"


def explanation_json(fx, driver_change):
    """The finding's Explanation as PgIncidentSweepTx::SaveExplanation stores it: the protobuf JSON
    mapping with proto field names (server/store/detail/conversions.cc MessageToJson), so int64 as
    strings, enums by name, fields at their default left out. A driver change that raised the copy
    kernel's registers 30 -> 40 per thread (occupancy limited by registers, 100 % -> 75 %), as
    server/incidents/explain/cause_ranking.cc words it."""
    old_driver = fx["environment"]["driver_version"]
    return {
        "baseline_run_ids": ["1"],
        "run_id": "2",
        "environment": [
            {"field": "driver_version", "baseline": [old_driver], "new_value": "590.44.01",
             "area": "DIFFERENCE_AREA_SOFTWARE"},
            {"field": "power_w_end", "baseline": ["198.2"], "new_value": "171.3",
             "area": "DIFFERENCE_AREA_CONDITIONS"},
        ],
        "attributes": [
            {"attribute": "registers_per_thread", "baseline": "30", "new_value": "40"},
            {"attribute": "active_blocks_per_sm", "baseline": "8", "new_value": "6"},
            {"attribute": "theoretical_occupancy", "baseline": "100 %", "new_value": "75 %"},
            {"attribute": "occupancy_limiter", "baseline": "warps", "new_value": "registers"},
            {"attribute": "achieved_occupancy", "baseline": "81 %", "new_value": "62 %"},
        ],
        "time": {"time_change": 0.05, "kernel_change": 0.048, "baseline_kernel_seconds": 4.0737e-05,
                 "new_kernel_seconds": 4.2692e-05, "baseline_event_kernel_gap": 0.0612,
                 "new_event_kernel_gap": 0.0647, "where": "kernel"},
        "clocks": {"time_change": 0.05, "cycles_change": 0.0498,
                   "baseline_sm_clock_mhz": 1975.73, "new_sm_clock_mhz": 1975.4,
                   "verdict": "cycles"},
        "counters": [
            {"counter": "sm__warps_active.avg.pct_of_peak_sustained_active", "baseline": 81.21,
             "new_value": 62.3, "change": -0.2328},
            {"counter": "dram__throughput.avg.pct_of_peak_sustained_elapsed", "baseline": 83.55,
             "new_value": 79.4, "change": -0.0497},
        ],
        "causes": [
            {"cause_class": "CAUSE_CLASS_SOFTWARE", "cause": driver_change,
             "evidence": ["registers 30 -> 40 per thread", "active blocks per SM 8 -> 6",
                          "theoretical occupancy 100 % -> 75 %",
                          "occupancy limiter became registers (was warps)",
                          "achieved occupancy 81 % -> 62 %",
                          "sm__warps_active.avg.pct_of_peak_sustained_active 81.21 -> 62.3 (-23.3 %)",
                          "dram__throughput.avg.pct_of_peak_sustained_elapsed 83.55 -> 79.4 (-5.0 %)",
                          "time +5.0 %, cycles +5.0 %, SM clock 1976 -> 1975 MHz",
                          "event time +5.0 %, kernels' own time +4.8 %"],
             "score": 5.5},
            {"cause_class": "CAUSE_CLASS_ENVIRONMENT",
             "cause": "the GPU's temperature or power readings differ (they also swing between "
                      "runs of a healthy GPU)",
             "evidence": ["power_w_end 198.2 -> 171.3"], "score": 0.5},
        ],
        "summary": driver_change + ": registers 30 -> 40 per thread",
        "computed_at": "2026-11-24T06:00:00Z",
        "ruled_out": ["clocks: the cycles moved with the time (not a slower clock)"],
        "counter_baseline_run_ids": ["1"],
        "counter_run_id": "2",
    }


def interval_seconds(text):
    m = re.fullmatch(r"\s*'?(\d+)([smhd])'?\s*", text)
    if not m:
        raise ValueError("interval %r" % text)
    return int(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]


def expand(sql, variables):
    """Grafana's interpolation for the PostgreSQL datasource: multi-value and include-all
    variables become quoted lists, others their raw value; then the macros."""
    def var(m):
        name = m.group(1) or m.group(2)
        if name.startswith("__"):
            return m.group(0)
        v = variables[name]
        value = VALUES[name]
        if v.get("multi") or v.get("includeAll"):
            return "'" + value.replace("'", "''") + "'"
        return value
    s = re.sub(r"\$\{(\w+)\}|\$(\w+)", var, sql)
    s = s.replace("$__interval", "1h")
    s = re.sub(r"\$__timeFilter\(([^)]*)\)",
               lambda m: "%s BETWEEN %s AND %s" % (m.group(1).strip(), FROM_TS, TO_TS), s)

    def group(m, alias):
        col, interval = [x.strip() for x in m.group(1).split(",")[:2]]
        n = interval_seconds(interval)
        return "floor(extract(epoch from %s)/%d)*%d%s" % (col, n, n, ' AS "time"' if alias else "")
    s = re.sub(r"\$__timeGroupAlias\(([^)]*)\)", lambda m: group(m, True), s)
    s = re.sub(r"\$__timeGroup\(([^)]*)\)", lambda m: group(m, False), s)
    s = s.replace("$__timeFrom()", FROM_TS).replace("$__timeTo()", TO_TS)
    if "$__" in s:
        raise ValueError("unexpanded macro in: " + s)
    return s


def main():
    bindir = pg_bin()
    if bindir is None:
        skip("PostgreSQL server binaries not found (Debian package postgresql; or set "
             "WARPWATCH_PG_BIN)")
    cluster = Cluster(bindir)
    if not cluster.psql:
        skip("psql not found (Debian package postgresql-client)")
    problems = []
    try:
        cluster.start()
        ok, _, err = cluster.sql("CREATE ROLE ww LOGIN CREATEROLE; CREATE DATABASE warpwatch OWNER ww;")
        assert ok, err
        for path in sorted(glob.glob(os.path.join(df.MIGRATIONS, "[0-9][0-9][0-9][0-9]_*.sql"))):
            ok, _, err = cluster.sql(open(path).read(), user="ww", db="warpwatch", single_tx=True)
            if not ok:
                print("FAIL: migration %s: %s" % (os.path.basename(path), err.strip()))
                return 1
        ok, _, err = cluster.sql(fixture_sql(), user="ww", db="warpwatch", single_tx=True)
        assert ok, "fixture: " + err
        ok, _, err = cluster.sql("ALTER ROLE warpwatch_readonly LOGIN;")
        if not ok:
            print("FAIL: migration 0003 did not create warpwatch_readonly: " + err.strip())
            return 1

        ran = 0
        for path in df.dashboard_paths():
            dash = json.load(open(path))
            variables = {v["name"]: v for v in dash.get("templating", {}).get("list", [])}
            for q in df.dashboard_queries(dash):
                if q.kind != "sql":
                    continue
                try:
                    text = expand(q.text, variables)
                except (KeyError, ValueError) as e:
                    problems.append("%s: cannot expand: %s" % (q.where, e))
                    continue
                ok, out, err = cluster.sql(text, user="warpwatch_readonly", db="warpwatch", csv=True)
                ran += 1
                if not ok:
                    problems.append("%s: %s\n%s" % (q.where, err.strip(), text))
                    continue
                lines = [l for l in out.splitlines() if l.strip()]
                if len(lines) < 2:
                    problems.append("%s: returned no rows\n%s" % (q.where, text))
                elif q.format == "time_series" and "time" not in lines[0].split(","):
                    problems.append("%s: time_series query has no \"time\" column (%s)" %
                                    (q.where, lines[0]))

        # The role reads and never writes.
        for stmt in ("INSERT INTO schedule (name, cron, job_template) VALUES ('x', '* * * * *', '{}')",
                     "SET default_transaction_read_only = off; BEGIN; DELETE FROM regression; COMMIT"):
            ok, _, err = cluster.sql(stmt + ";", user="warpwatch_readonly", db="warpwatch")
            if ok:
                problems.append("warpwatch_readonly could run: " + stmt)
        for p in problems:
            print("FAIL: " + p)
        if problems:
            return 1
        if ran < 10:
            print("FAIL: only %d SQL queries found in the dashboards" % ran)
            return 1
        print("ok: %d dashboard SQL queries ran as warpwatch_readonly and returned rows; the role "
              "cannot write" % ran)
        return 0
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
