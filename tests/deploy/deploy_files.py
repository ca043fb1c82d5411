# Reads warpwatch's deploy files for the tests in this folder (Python 3 standard library only):
# the Grafana dashboards and the queries in them, the provisioned datasource uids, the metric and
# label names docs/metrics.md lists, the alert rules' expressions and the schema the migrations
# create.
import glob
import json
import os
import re

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GRAFANA = os.path.join(ROOT, "deploy", "grafana")
MIGRATIONS = os.path.join(ROOT, "server", "store", "migrations")


def dashboard_paths():
    return sorted(glob.glob(os.path.join(GRAFANA, "dashboards", "*.json")))


def provisioned_datasources():
    """{uid: type} from deploy/grafana/provisioning/datasources/*.yml (simple line parse)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(GRAFANA, "provisioning", "datasources", "*.yml"))):
        uid = None
        for line in open(path):
            line = line.split("#", 1)[0].rstrip()
            m = re.match(r"^\s*-\s+name:", line)
            if m:
                uid = None
            m = re.match(r"^\s+uid:\s*(\S+)", line)
            if m:
                uid = m.group(1).strip("'\"")
            m = re.match(r"^\s+type:\s*(\S+)", line)
            if m and uid is not None:
                out[uid] = m.group(1).strip("'\"")
    return out


def walk_panels(panels):
    for p in panels:
        yield p
        yield from walk_panels(p.get("panels", []))


class Query:
    """One query of a dashboard: kind 'promql' or 'sql', with where it came from."""

    def __init__(self, kind, text, where, datasource_uid, fmt=None):
        self.kind, self.text, self.where, self.uid, self.format = (kind, text, where,
                                                                   datasource_uid, fmt)


def _uid(ds):
    if isinstance(ds, dict):
        return ds.get("uid")
    return ds


def dashboard_queries(dash):
    """Every query of a dashboard: panel targets, templating variables, annotations."""
    uid = dash.get("uid")
    for p in walk_panels(dash.get("panels", [])):
        for t in p.get("targets", []):
            ds = _uid(t.get("datasource")) or _uid(p.get("datasource"))
            where = "%s panel %r target %s" % (uid, p.get("title"), t.get("refId"))
            if "expr" in t:
                yield Query("promql", t["expr"], where, ds)
            if "rawSql" in t:
                yield Query("sql", t["rawSql"], where, ds, t.get("format"))
    for v in dash.get("templating", {}).get("list", []):
        if v.get("type") != "query":
            continue
        q = v.get("query")
        where = "%s variable $%s" % (uid, v.get("name"))
        ds = _uid(v.get("datasource"))
        if isinstance(q, dict):
            yield Query("promql-variable", q.get("query", ""), where, ds)
        elif ds == "warpwatch-prometheus":
            yield Query("promql-variable", q, where, ds)
        else:
            yield Query("sql", q, where, ds, "table")
    for a in dash.get("annotations", {}).get("list", []):
        if a.get("builtIn"):
            continue
        sql = a.get("target", {}).get("rawSql") or a.get("rawQuery")
        if sql:
            yield Query("sql", sql, "%s annotation %r" % (uid, a.get("name")),
                        _uid(a.get("datasource")), "table")


def datasource_refs(dash):
    """(where, uid) of every datasource reference in a dashboard."""
    uid = dash.get("uid")
    for p in walk_panels(dash.get("panels", [])):
        if p.get("type") == "row" and "datasource" not in p:
            continue
        yield ("%s panel %r" % (uid, p.get("title")), _uid(p.get("datasource")))
        for t in p.get("targets", []):
            if "datasource" in t:
                yield ("%s panel %r target %s" % (uid, p.get("title"), t.get("refId")),
                       _uid(t["datasource"]))
    for v in dash.get("templating", {}).get("list", []):
        if "datasource" in v:
            yield ("%s variable $%s" % (uid, v.get("name")), _uid(v["datasource"]))
    for a in dash.get("annotations", {}).get("list", []):
        if not a.get("builtIn"):
            yield ("%s annotation %r" % (uid, a.get("name")), _uid(a.get("datasource")))


# docs/metrics.md --------------------------------------------------------------------------------

def documented_names():
    """(metrics, labels) from docs/metrics.md: first-column names of the tables under
    "## Exported today" (metrics; "### Labels" holds labels). Planned metrics do not count."""
    text = open(os.path.join(ROOT, "docs", "metrics.md")).read()
    start = text.index("## Exported today")
    end = text.index("\n## ", start + 1)
    section = text[start:end]
    metrics, labels = set(), set()
    target = metrics
    for line in section.splitlines():
        if line.startswith("### "):
            target = labels if line.strip() == "### Labels" else metrics
        m = re.match(r"^\|\s*`([A-Za-z_:][A-Za-z0-9_:]*)`", line)
        if m:
            target.add(m.group(1))
    # Prometheus' own series, named in the text rather than a table.
    if re.search(r"Prometheus adds `up`", section):
        metrics.add("up")
    return metrics, labels


# PromQL -----------------------------------------------------------------------------------------

_PROMQL_KEYWORDS = {
    "and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right",
    "offset", "bool", "inf", "nan", "atan2", "start", "end",
    # aggregation operators, which may be followed by "by (...)" rather than "("
    "sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk",
    "topk", "quantile",
}
_LABEL_LISTS = re.compile(r"\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)")


def promql_names(expr):
    """(metric names, label names) an expression uses. Grafana's $variables are blanked first."""
    e = re.sub(r"\$__\w+|\$\w+|\$\{[^}]*\}", "1m", expr)
    labels = set()
    for m in re.finditer(r"\{([^}]*)\}", e):
        for lm in re.finditer(r"([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)", m.group(1)):
            labels.add(lm.group(1))
    e = re.sub(r"\{[^}]*\}", " ", e)
    for m in _LABEL_LISTS.finditer(e):
        labels.update(x.strip() for x in m.group(2).split(",") if x.strip())
    e = _LABEL_LISTS.sub(lambda m: m.group(1) + " ", e)
    e = re.sub(r'"[^"]*"', " ", e)
    e = re.sub(r"\[[^\]]*\]", " ", e)
    e = re.sub(r"\boffset\s+\w+", " ", e)
    metrics = set()
    for m in re.finditer(r"(?<![\w.])([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?", e):
        name, call = m.group(1), m.group(2)
        if call or name.lower() in _PROMQL_KEYWORDS:
            continue
        if re.fullmatch(r"\d+[smhdwy]", name):
            continue
        metrics.add(name)
    return metrics, labels


def base_metric(name):
    """A histogram's or summary's series name -> its family name."""
    for suffix in ("_bucket", "_sum", "_count"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def variable_query_names(q):
    """label_values(metric, label) / label_values(label) / query_result(expr)."""
    m = re.fullmatch(r"\s*label_values\(\s*(.*?)\s*,\s*([A-Za-z_]\w*)\s*\)\s*", q)
    if m:
        metrics, labels = promql_names(m.group(1))
        return metrics, labels | {m.group(2)}
    m = re.fullmatch(r"\s*label_values\(\s*([A-Za-z_]\w*)\s*\)\s*", q)
    if m:
        return set(), {m.group(1)}
    m = re.fullmatch(r"\s*query_result\((.*)\)\s*", q, re.S)
    return promql_names(m.group(1) if m else q)


def alert_rule_exprs():
    """(file:alert, expr) of every rule in deploy/prometheus/rules/*.yml (block or plain)."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "deploy", "prometheus", "rules", "*.yml"))):
        lines = open(path).read().splitlines()
        name = "?"
        i = 0
        while i < len(lines):
            line = lines[i]
            m = re.match(r"^\s*-?\s*(alert|record):\s*(\S+)", line)
            if m:
                name = m.group(2)
            m = re.match(r"^(\s*)expr:\s*(.*)$", line)
            if m:
                indent, rest = len(m.group(1)), m.group(2).strip()
                if rest in ("|", ">", "|-", ">-"):
                    body = []
                    i += 1
                    while i < len(lines) and (not lines[i].strip() or
                                              len(lines[i]) - len(lines[i].lstrip()) > indent):
                        body.append(lines[i])
                        i += 1
                    out.append(("%s:%s" % (os.path.basename(path), name), "\n".join(body)))
                    continue
                out.append(("%s:%s" % (os.path.basename(path), name), rest.strip("'\"")))
            i += 1
    return out


# SQL --------------------------------------------------------------------------------------------

def schema():
    """{table: set(columns)} from the migrations' CREATE TABLE and ALTER TABLE ... ADD COLUMN."""
    tables = {}
    for path in sorted(glob.glob(os.path.join(MIGRATIONS, "[0-9][0-9][0-9][0-9]_*.sql"))):
        text = re.sub(r"--[^\n]*", "", open(path).read())
        for m in re.finditer(r"CREATE TABLE(?: IF NOT EXISTS)?\s+(\w+)\s*\((.*?)\n\);", text, re.S):
            cols = set()
            depth = 0
            part = ""
            for ch in m.group(2):
                depth += ch == "("
                depth -= ch == ")"
                if ch == "," and depth == 0:
                    cols.add(part)
                    part = ""
                else:
                    part += ch
            cols.add(part)
            names = set()
            for c in cols:
                w = c.split()
                if w and w[0].upper() not in ("CHECK", "UNIQUE", "PRIMARY", "FOREIGN",
                                              "CONSTRAINT", "EXCLUDE"):
                    names.add(w[0])
            tables[m.group(1)] = names
        # One ALTER TABLE may add several columns: "ALTER TABLE t ADD COLUMN a ..., ADD COLUMN b ...;"
        for m in re.finditer(r"ALTER TABLE\s+(?:IF EXISTS\s+)?(\w+)\s+(.*?);", text, re.I | re.S):
            for c in re.finditer(r"ADD COLUMN\s+(?:IF NOT EXISTS\s+)?(\w+)", m.group(2), re.I):
                tables.setdefault(m.group(1), set()).add(c.group(1))
    tables.setdefault("schema_version", {"version", "name", "applied_at"})
    return tables


_SQL_RESERVED = {"on", "where", "join", "left", "right", "inner", "outer", "group", "order",
                 "limit", "using", "cross", "full", "natural", "lateral", "as"}


def sql_names(sql):
    """(tables, [(alias, column)]) a query names: FROM/JOIN tables with their aliases, and every
    alias.column reference. String literals and Grafana macros' names are ignored."""
    s = re.sub(r"'[^']*'", "''", sql)
    # extract(epoch FROM x) names no table.
    s = re.sub(r"\b(extract|substring|trim)\s*\(\s*(\w+)\s+FROM\b", r"\1(\2,", s, flags=re.I)
    aliases = {}
    tables = set()
    for m in re.finditer(r"\b(?:FROM|JOIN)\s+([A-Za-z_]\w*)(?:\s+(?:AS\s+)?([A-Za-z_]\w*))?", s, re.I):
        table, alias = m.group(1), m.group(2)
        tables.add(table)
        aliases[table] = table
        if alias and alias.lower() not in _SQL_RESERVED:
            aliases[alias] = table
    refs = []
    for m in re.finditer(r"(?<![\w$.])([A-Za-z_]\w*)\.([A-Za-z_]\w*)", s):
        refs.append((m.group(1), m.group(2), aliases.get(m.group(1))))
    return tables, refs
