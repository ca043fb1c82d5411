#!/usr/bin/env python3
# A real Prometheus scraping a real warpwatch-server (ctest deploy.prometheus_live):
# - starts a throwaway PostgreSQL and warpwatch-server (its migrations must create
#   warpwatch_readonly), makes a few gRPC calls with curl (HTTP/2) so the RPC histogram has
#   series, one OK and one not;
# - starts Debian's prometheus with deploy/prometheus/prometheus.yml (targets pointed at the test
#   processes, 1 s intervals; the worker target is left unreachable) and the alert rules;
# - checks Prometheus loaded every alert rule and evaluates them without error, and that every
#   dashboard and alert expression that reads only server metrics (and `up`) returns data.
# - with the replay worker (tests/e2e: the real daemon replaying tests/fixtures/h100_nightly.json),
#   submits a job of one family, waits for it to succeed, and checks the worker expressions return
#   data too, except those of GPU telemetry (the replay has no NVML) and of the running job (gone
#   once it ends).
# Exits 77 (skipped) with the reason when prometheus, curl, PostgreSQL or the server binary is
# missing.
#   prometheus_live_test.py /path/to/warpwatch-server [/path/to/warpwatch-worker-replay]
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_files as df  # noqa: E402
from dashboard_sql_test import Cluster, pg_bin  # noqa: E402


def skip(why):
    print("skipped: " + why)
    sys.exit(77)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, fn, seconds, procs=()):
    deadline = time.time() + seconds
    while time.time() < deadline:
        for p in procs:
            if p.poll() is not None:
                raise TimeoutError("%s exited with status %s while waiting for %s" %
                                   (os.path.basename(p.args[0]), p.returncode, what))
        try:
            if fn():
                return
        except OSError:
            pass
        time.sleep(0.25)
    raise TimeoutError("timed out waiting for " + what)


# Worker series that exist only while a job runs or with GPU telemetry (NVML), which the replay
# worker does not have.
NOT_REPLAYED = ("warpwatch_worker_sm_clock_hertz", "warpwatch_worker_gpu_temperature_celsius",
                "warpwatch_worker_power_watts", "warpwatch_worker_throttled",
                "warpwatch_worker_throttle_reasons", "warpwatch_worker_job_points_done",
                "warpwatch_worker_job_start_time_seconds")
FAMILY = "memory.coalescing"


def submit_job_request(family):
    """SubmitJobRequest{spec: JobSpec{families: [family]}}, protobuf-encoded by hand."""
    name = family.encode()
    spec = b"\x0a" + bytes([len(name)]) + name          # JobSpec.families = 1
    return b"\x0a" + bytes([len(spec)]) + spec          # SubmitJobRequest.spec = 1


def grpc_call(port, method, message=b""):
    """A unary gRPC request over h2c with curl; returns the grpc-status trailer."""
    frame = b"\x00" + len(message).to_bytes(4, "big") + message
    p = subprocess.run(
        ["curl", "-sS", "--http2-prior-knowledge", "-o", "/dev/null", "-D", "-",
         "-H", "content-type: application/grpc", "-H", "te: trailers",
         "--data-binary", "@-", "http://127.0.0.1:%d/%s" % (port, method)],
        input=frame, capture_output=True, timeout=10)
    m = re.search(rb"grpc-status: *(\d+)", p.stdout)
    return int(m.group(1)) if m else None


def prometheus_config(tmp, metrics_port, worker_port, dead_port):
    src = open(os.path.join(df.ROOT, "deploy", "prometheus", "prometheus.yml")).read()
    subs = [('"server:9464"', '"127.0.0.1:%d"' % metrics_port),
            ('"worker:9465"', '"127.0.0.1:%d"' % worker_port),
            ('"dcgm-exporter:9400"', '"127.0.0.1:%d"' % dead_port),
            ("scrape_interval: 15s", "scrape_interval: 1s"),
            ("evaluation_interval: 15s", "evaluation_interval: 1s"),
            ("scrape_interval: 30s", "scrape_interval: 1s")]
    for old, new in subs:
        if old not in src:
            raise SystemExit("FAIL: deploy/prometheus/prometheus.yml no longer has %s "
                             "(update this test)" % old)
        src = src.replace(old, new)
    os.makedirs(os.path.join(tmp, "rules"))
    for name in os.listdir(os.path.join(df.ROOT, "deploy", "prometheus", "rules")):
        shutil.copy(os.path.join(df.ROOT, "deploy", "prometheus", "rules", name),
                    os.path.join(tmp, "rules", name))
    path = os.path.join(tmp, "prometheus.yml")
    with open(path, "w") as f:
        f.write(src)
    return path


def query(port, expr):
    url = "http://127.0.0.1:%d/api/v1/query?%s" % (port, urllib.parse.urlencode({"query": expr}))
    with urllib.request.urlopen(url, timeout=10) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise ValueError(body)
    return body["data"]["result"]


def live_expressions(with_worker):
    """(where, expr) of dashboard and alert expressions whose series this test makes: server
    metrics, and with a worker, worker metrics but NOT_REPLAYED."""
    out = []
    for path in df.dashboard_paths():
        for q in df.dashboard_queries(json.load(open(path))):
            if q.kind == "promql":
                out.append((q.where, q.text))
    out.extend(df.alert_rule_exprs())
    picked = []
    for where, expr in out:
        metrics, _ = df.promql_names(expr)
        worker = any(m.startswith("warpwatch_worker_") for m in metrics)
        if metrics and (not worker or (with_worker and not set(metrics) & set(NOT_REPLAYED))):
            picked.append((where, expr))
    return picked


def main():
    server_bin = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("WARPWATCH_SERVER_BIN", "")
    replay_bin = sys.argv[2] if len(sys.argv) > 2 else ""
    if replay_bin and not os.access(replay_bin, os.X_OK):
        print("note: %s not built; worker expressions are not checked" % replay_bin)
        replay_bin = ""
    prometheus = shutil.which("prometheus")
    if prometheus is None:
        skip("prometheus not found (Debian package prometheus)")
    if shutil.which("curl") is None:
        skip("curl not found")
    if not (server_bin and os.access(server_bin, os.X_OK)):
        skip("warpwatch-server not built (%s)" % (server_bin or "no path given"))
    bindir = pg_bin()
    if bindir is None:
        skip("PostgreSQL server binaries not found (Debian package postgresql)")

    cluster = Cluster(bindir)
    tmp = tempfile.mkdtemp(prefix="warpwatch-deploy-prom-")
    procs = []
    problems = []
    try:
        cluster.start()
        ok, _, err = cluster.sql("CREATE ROLE ww LOGIN CREATEROLE; CREATE DATABASE warpwatch OWNER ww;")
        assert ok, err
        grpc_port, metrics_port, prom_port, dead_port, worker_port = (free_port() for _ in range(5))
        env = dict(os.environ, WARPWATCH_DATABASE_URL="postgresql://ww@/warpwatch?host=" + cluster.dir)
        server_log = open(os.path.join(tmp, "server.log"), "w")
        procs.append(subprocess.Popen(
            [server_bin, "--listen", "127.0.0.1:%d" % grpc_port,
             "--metrics-listen", "127.0.0.1:%d" % metrics_port, "--reaper-interval-seconds", "0.2"],
            env=env, stdout=server_log, stderr=subprocess.STDOUT))
        wait_for("warpwatch-server /metrics", lambda: b"warpwatch_jobs" in urllib.request.urlopen(
            "http://127.0.0.1:%d/metrics" % metrics_port, timeout=2).read(), 30, procs)
        # /metrics is up before the migrations end: wait for the schema, then for the role.
        def migrated():
            ok, out, _ = cluster.sql("SELECT count(*) FROM pg_roles WHERE rolname = "
                                     "'warpwatch_readonly';")
            return ok and re.search(r"^\s*1\s*$", out, re.M)
        try:
            wait_for("the server's migrations to create warpwatch_readonly", migrated, 30, procs)
        except TimeoutError as e:
            problems.append(str(e))

        if replay_bin:
            worker_log = open(os.path.join(tmp, "worker.log"), "w")
            procs.append(subprocess.Popen(
                [replay_bin, "serve", "--server=ipv4:127.0.0.1:%d" % grpc_port,
                 "--metrics-listen=127.0.0.1:%d" % worker_port, "--acquire-wait-seconds=2",
                 "--replay-fixture=" + os.path.join(df.ROOT, "tests", "fixtures", "h100_nightly.json"),
                 "--replay-max-point-seconds=0.3"],
                stdout=worker_log, stderr=subprocess.STDOUT))
        config = prometheus_config(tmp, metrics_port, worker_port if replay_bin else dead_port,
                                   dead_port)
        prom_log = open(os.path.join(tmp, "prometheus.log"), "w")
        procs.append(subprocess.Popen(
            [prometheus, "--config.file=" + config, "--storage.tsdb.path=" + os.path.join(tmp, "data"),
             "--web.listen-address=127.0.0.1:%d" % prom_port],
            stdout=prom_log, stderr=subprocess.STDOUT))
        wait_for("Prometheus to scrape the server",
                 lambda: any(r["value"][1] == "1" for r in query(prom_port, 'up{job="warpwatch-server"}')),
                 60, procs)
        # RPC series: calls that end OK and not OK, spread over a few scrapes.
        for _ in range(4):
            if grpc_call(grpc_port, "grpc.health.v1.Health/Check") != 0:
                problems.append("grpc.health.v1.Health/Check did not answer OK")
                break
            grpc_call(grpc_port, "warpwatch.v1.JobService/GetJob")
            time.sleep(1.5)
        if replay_bin:
            if grpc_call(grpc_port, "warpwatch.v1.JobService/SubmitJob",
                         submit_job_request(FAMILY)) != 0:
                problems.append("SubmitJob of %s did not answer OK" % FAMILY)
            wait_for("the replay worker to finish the %s job" % FAMILY, lambda: query(
                prom_port, 'warpwatch_worker_jobs_total{outcome="succeeded"} > 0'), 120, procs)
            time.sleep(3)  # a few more scrapes after the job, for rate() windows
        wait_for("RPC series in Prometheus", lambda: query(
            prom_port, 'warpwatch_rpc_duration_seconds_count{code!="OK"}'), 30, procs)

        # Every alert rule loaded and evaluates cleanly.
        with urllib.request.urlopen("http://127.0.0.1:%d/api/v1/rules" % prom_port, timeout=10) as r:
            groups = json.load(r)["data"]["groups"]
        loaded = [rule for g in groups for rule in g["rules"] if rule["type"] == "alerting"]
        if len(loaded) != len(df.alert_rule_exprs()):
            problems.append("Prometheus loaded %d alert rules, deploy/prometheus/rules has %d" %
                            (len(loaded), len(df.alert_rule_exprs())))
        for rule in loaded:
            if rule.get("health") not in ("ok", "unknown") or rule.get("lastError"):
                problems.append("rule %s: %s %s" % (rule["name"], rule.get("health"),
                                                    rule.get("lastError")))

        # Server-side expressions return data (alert conditions are expected to be false, so
        # only their inner series are required to exist: the expression before its comparison).
        # The node dashboard's $Hostname, as its variable query finds it.
        hosts = [r["metric"].get("Hostname") for r in query(prom_port, "warpwatch_worker_gpu_busy")]
        hostname = hosts[0] if hosts else "no-worker"
        checked = 0
        for where, expr in live_expressions(bool(replay_bin)):
            text = (expr.replace("$__rate_interval", "30s").replace("$__interval", "30s")
                    .replace("$__range", "1m").replace("$Hostname", hostname))
            if "$" in text:
                problems.append("%s: no test value for a variable in %s" % (where, text))
                continue
            if ".yml:" in where:
                continue
            checked += 1
            try:
                result = query(prom_port, text)
            except (ValueError, OSError) as e:
                problems.append("%s: query failed: %s" % (where, e))
                continue
            if not result:
                problems.append("%s: no data for %s" % (where, text))
        if checked < (20 if replay_bin else 8):
            problems.append("only %d dashboard expressions checked" % checked)
        if problems:
            for log in ("server.log", "worker.log"):
                if os.path.exists(os.path.join(tmp, log)):
                    print("--- %s (tail)\n%s" % (log, open(os.path.join(tmp, log)).read()[-3000:]))
        for p in problems:
            print("FAIL: " + p)
        if problems:
            return 1
        print("ok: Prometheus scraped warpwatch-server%s, loaded %d alert rules without errors, "
              "and %d dashboard expressions (%s) returned data" %
              (" and a replay worker" if replay_bin else "", len(loaded), checked,
               "server and worker" if replay_bin else "server only"))
        return 0
    except TimeoutError as e:
        for log in ("server.log", "worker.log", "prometheus.log"):
            path = os.path.join(tmp, log)
            if os.path.exists(path):
                print("--- %s (tail)\n%s" % (log, open(path).read()[-3000:]))
        print("FAIL: %s" % e)
        return 1
    finally:
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
        cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
