#!/usr/bin/env python3
# A real Prometheus scraping a real warpwatch-server (ctest deploy.prometheus_live):
# - starts a throwaway PostgreSQL and warpwatch-server (its migrations must create
#   warpwatch_readonly), makes a few gRPC calls with curl (HTTP/2) so the RPC histogram has
#   series, one OK and one not;
# - starts Debian's prometheus with deploy/prometheus/prometheus.yml (targets pointed at the test
#   processes, 1 s intervals; the worker target is left unreachable) and the alert rules;
# - checks Prometheus loaded every alert rule and evaluates them without error, and that every
#   dashboard and alert expression that reads only server metrics (and `up`) returns data.
# Worker expressions need a worker running jobs and are not evaluated here (the replay worker is
# not built by this test; tests/e2e covers the worker). Exits 77 (skipped) with the reason when
# prometheus, curl, PostgreSQL or the server binary is missing.
#   prometheus_live_test.py /path/to/warpwatch-server
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


def grpc_call(port, method):
    """An empty unary gRPC request over h2c with curl; returns the grpc-status trailer."""
    p = subprocess.run(
        ["curl", "-sS", "--http2-prior-knowledge", "-o", "/dev/null", "-D", "-",
         "-H", "content-type: application/grpc", "-H", "te: trailers",
         "--data-binary", "@-", "http://127.0.0.1:%d/%s" % (port, method)],
        input=b"\x00\x00\x00\x00\x00", capture_output=True, timeout=10)
    m = re.search(rb"grpc-status: *(\d+)", p.stdout)
    return int(m.group(1)) if m else None


def prometheus_config(tmp, metrics_port, dead_port):
    src = open(os.path.join(df.ROOT, "deploy", "prometheus", "prometheus.yml")).read()
    subs = [('"server:9464"', '"127.0.0.1:%d"' % metrics_port),
            ('"worker:9465"', '"127.0.0.1:%d"' % dead_port),
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


def server_expressions():
    """(where, expr) of dashboard and alert expressions that read no worker metric."""
    out = []
    for path in df.dashboard_paths():
        for q in df.dashboard_queries(json.load(open(path))):
            if q.kind == "promql":
                out.append((q.where, q.text))
    out.extend(df.alert_rule_exprs())
    picked = []
    for where, expr in out:
        metrics, _ = df.promql_names(expr)
        if metrics and not any(m.startswith("warpwatch_worker_") for m in metrics):
            picked.append((where, expr))
    return picked


def main():
    server_bin = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("WARPWATCH_SERVER_BIN", "")
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
        grpc_port, metrics_port, prom_port, dead_port = (free_port() for _ in range(4))
        env = dict(os.environ, WARPWATCH_DATABASE_URL="postgresql://ww@/warpwatch?host=" + cluster.dir)
        server_log = open(os.path.join(tmp, "server.log"), "w")
        procs.append(subprocess.Popen(
            [server_bin, "--listen", "127.0.0.1:%d" % grpc_port,
             "--metrics-listen", "127.0.0.1:%d" % metrics_port, "--reaper-interval-seconds", "0.2"],
            env=env, stdout=server_log, stderr=subprocess.STDOUT))
        wait_for("warpwatch-server /metrics", lambda: b"warpwatch_jobs" in urllib.request.urlopen(
            "http://127.0.0.1:%d/metrics" % metrics_port, timeout=2).read(), 30, procs)
        ok, out, _ = cluster.sql("SELECT count(*) FROM pg_roles WHERE rolname = 'warpwatch_readonly';")
        if not (ok and re.search(r"^\s*1\s*$", out, re.M)):
            problems.append("the server's migrations did not create warpwatch_readonly")

        config = prometheus_config(tmp, metrics_port, dead_port)
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
        checked = 0
        for where, expr in server_expressions():
            text = (expr.replace("$__rate_interval", "30s").replace("$__interval", "30s")
                    .replace("$__range", "1m"))
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
        if checked < 8:
            problems.append("only %d server-side dashboard expressions found" % checked)
        if problems:
            print(open(os.path.join(tmp, "server.log")).read()[-3000:])
        for p in problems:
            print("FAIL: " + p)
        if problems:
            return 1
        print("ok: Prometheus scraped warpwatch-server, loaded %d alert rules without errors, and "
              "%d server-side dashboard expressions returned data" % (len(loaded), checked))
        return 0
    except TimeoutError as e:
        for log in ("server.log", "prometheus.log"):
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
