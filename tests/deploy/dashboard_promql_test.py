#!/usr/bin/env python3
# Parses every PromQL expression of deploy/grafana/dashboards with Prometheus' own parser
# (ctest deploy.dashboard_promql): Grafana's $variables are replaced by sample values, each
# expression becomes a recording rule of a temporary rules file, and `promtool check rules` must
# accept the file. Exits 77 (skipped) without promtool (Debian package prometheus).
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_files as df  # noqa: E402

# What Grafana puts in place of its own variables, and sample values of the dashboards' ones.
SUBSTITUTES = {"__rate_interval": "1m", "__interval": "1m", "__range": "1h",
               "Hostname": "gpu-node-17"}


def expand(expr):
    def var(m):
        name = m.group(1) or m.group(2)
        if name not in SUBSTITUTES:
            raise KeyError(name)
        return SUBSTITUTES[name]
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", var, expr)


def expressions():
    out = []
    for path in df.dashboard_paths():
        dash = json.load(open(path))
        for q in df.dashboard_queries(dash):
            if q.kind == "promql":
                out.append((q.where, q.text))
            elif q.kind == "promql-variable":
                m = re.fullmatch(r"\s*label_values\(\s*(.*?)\s*,\s*\w+\s*\)\s*", q.text)
                if m:
                    out.append((q.where, m.group(1)))
    return out


def main():
    promtool = shutil.which("promtool")
    if promtool is None:
        print("skipped: promtool not found (Debian package prometheus)")
        return 77
    exprs = expressions()
    problems = []
    lines = ["groups:", "  - name: dashboard-expressions", "    rules:"]
    for i, (where, expr) in enumerate(exprs):
        try:
            text = expand(expr)
        except KeyError as e:
            problems.append("%s: no sample value for $%s" % (where, e.args[0]))
            continue
        lines.append("      - record: dashboard_expression_%d" % i)
        lines.append("        expr: %s" % json.dumps(text))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "dashboards.yml")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        p = subprocess.run([promtool, "check", "rules", path], capture_output=True, text=True)
        if p.returncode != 0:
            # promtool names the rule; map its number back to the panel.
            out = p.stdout + p.stderr
            for m in re.finditer(r"dashboard_expression_(\d+)", out):
                problems.append("%s: rejected by promtool" % exprs[int(m.group(1))][0])
            problems.append("promtool check rules:\n" + out)
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    if len(exprs) < 20:
        print("FAIL: only %d PromQL expressions found in the dashboards" % len(exprs))
        return 1
    print("ok: promtool parses all %d PromQL expressions of the dashboards" % len(exprs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
