#!/usr/bin/env python3
# Checks deploy/grafana offline, without Grafana (ctest deploy.grafana_dashboards):
# - every dashboard is valid JSON with a unique uid and unique panel ids;
# - every datasource a panel, target, variable or annotation names is provisioned
#   (deploy/grafana/provisioning/datasources), with the query language of its type;
# - every metric and label a PromQL query uses (dashboards and deploy/prometheus/rules) is listed
#   in docs/metrics.md "Exported today";
# - every SQL query names only tables and alias.columns that server/store/migrations create;
# - every $variable a query uses is defined by the dashboard or is one of Grafana's.
# Prints each problem and exits 1; prints what it checked and exits 0 when all is well.
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_files as df  # noqa: E402

GRAFANA_BUILTIN_DS = {"-- Grafana --", "grafana"}
GRAFANA_VARIABLES = {"__interval", "__interval_ms", "__rate_interval", "__range", "__range_s",
                     "__range_ms", "__from", "__to", "__dashboard", "__name", "__org",
                     "__user", "timeFilter", "__timeFilter", "__timeFrom", "__timeTo",
                     "__timeGroup", "__timeGroupAlias", "__unixEpochFilter", "__timeEpoch",
                     "__unixEpochGroup", "__unixEpochGroupAlias", "__unixEpochFrom",
                     "__unixEpochTo", "__schema", "__table", "__column", "__value"}
QUERY_KIND_OF_TYPE = {"prometheus": {"promql", "promql-variable"},
                      "postgres": {"sql"}, "grafana-postgresql-datasource": {"sql"}}


def main():
    problems = []
    datasources = df.provisioned_datasources()
    if not datasources:
        problems.append("no datasources provisioned in deploy/grafana/provisioning/datasources")
    metrics, labels = df.documented_names()
    if not metrics or not labels:
        problems.append("docs/metrics.md: found no metrics or no labels under 'Exported today'")
    tables = df.schema()
    for t in ("job", "run", "measurement", "regression", "worker", "device"):
        if t not in tables:
            problems.append("migrations: table %s not found (schema parse broken?)" % t)

    paths = df.dashboard_paths()
    if len(paths) < 4:
        problems.append("expected the four dashboards, found %d" % len(paths))
    uids = {}
    counts = {"promql": 0, "sql": 0, "refs": 0}

    def check_promql(where, metric_names, label_names):
        for name in sorted(metric_names):
            if df.base_metric(name) not in metrics and name not in metrics:
                problems.append("%s: metric %s is not in docs/metrics.md" % (where, name))
        for name in sorted(label_names):
            if name not in labels:
                problems.append("%s: label %s is not in docs/metrics.md" % (where, name))

    for path in paths:
        name = os.path.basename(path)
        try:
            dash = json.load(open(path))
        except ValueError as e:
            problems.append("%s: invalid JSON: %s" % (name, e))
            continue
        uid = dash.get("uid")
        if not uid or not dash.get("title"):
            problems.append("%s: no uid or title" % name)
        elif uid in uids:
            problems.append("%s: uid %s also used by %s" % (name, uid, uids[uid]))
        uids[uid] = name
        ids = [p.get("id") for p in df.walk_panels(dash.get("panels", []))]
        if len(ids) != len(set(ids)) or None in ids:
            problems.append("%s: panel ids missing or repeated" % name)
        if not any(p.get("type") != "row" for p in df.walk_panels(dash.get("panels", []))):
            problems.append("%s: no panels" % name)

        for where, ds in df.datasource_refs(dash):
            counts["refs"] += 1
            if ds not in datasources and ds not in GRAFANA_BUILTIN_DS:
                problems.append("%s: datasource uid %r is not provisioned" % (where, ds))

        defined = {v.get("name") for v in dash.get("templating", {}).get("list", [])}
        for q in df.dashboard_queries(dash):
            if q.uid in datasources and q.kind not in QUERY_KIND_OF_TYPE.get(datasources[q.uid], {q.kind}):
                problems.append("%s: a %s query on datasource %s of type %s" %
                                (q.where, q.kind, q.uid, datasources[q.uid]))
            for v in re.findall(r"\$\{?(\w+)", q.text):
                if v not in defined and v not in GRAFANA_VARIABLES:
                    problems.append("%s: uses $%s, which the dashboard does not define" % (q.where, v))
            if q.kind == "promql":
                counts["promql"] += 1
                check_promql(q.where, *df.promql_names(q.text))
            elif q.kind == "promql-variable":
                counts["promql"] += 1
                check_promql(q.where, *df.variable_query_names(q.text))
            else:
                counts["sql"] += 1
                used_tables, refs = df.sql_names(q.text)
                if not used_tables:
                    problems.append("%s: SQL names no table" % q.where)
                for t in sorted(used_tables):
                    if t not in tables:
                        problems.append("%s: table %s is not created by any migration" % (q.where, t))
                for alias, column, table in refs:
                    if table is None:
                        problems.append("%s: %s.%s: %s is no table or alias of the query" %
                                        (q.where, alias, column, alias))
                    elif table in tables and column not in tables[table]:
                        problems.append("%s: column %s.%s does not exist (%s.%s)" %
                                        (q.where, table, column, alias, column))

    rules = df.alert_rule_exprs()
    if not rules:
        problems.append("no alert rule expressions found in deploy/prometheus/rules")
    for where, expr in rules:
        counts["promql"] += 1
        check_promql(where, *df.promql_names(expr))

    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print("ok: %d dashboards, %d datasource references to %s, %d PromQL expressions "
          "(dashboards and %d alert rules) against %d documented metrics, %d SQL queries against "
          "%d tables" % (len(paths), counts["refs"], ", ".join(sorted(datasources)),
                         counts["promql"], len(rules), len(metrics), counts["sql"], len(tables)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
