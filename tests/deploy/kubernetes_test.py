#!/usr/bin/env python3
# Checks deploy/kubernetes offline (ctest deploy.kubernetes). `kubectl apply --dry-run=client`
# needs an API server for discovery and schemas, so instead:
# - `kubectl kustomize` builds the manifests (YAML, kustomization and references are valid);
# - `kubectl label --local -o json` decodes every object (no cluster);
# - the wiring is checked: selectors match pod labels, Services' target ports exist, the worker
#   DaemonSet requests nvidia.com/gpu, metrics ports are 9464/9465, the ServiceMonitor selects
#   both Services whose names are the job labels the alert rules use, every container is
#   unprivileged with a memory limit, and prometheus-rule.yaml is what gen-prometheus-rule.sh
#   makes of deploy/prometheus/rules.
# Exits 77 (skipped) without kubectl.
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_files as df  # noqa: E402

K8S = os.path.join(df.ROOT, "deploy", "kubernetes")


def objects(kubectl):
    built = subprocess.run([kubectl, "kustomize", K8S], capture_output=True, text=True)
    if built.returncode != 0:
        raise SystemExit("FAIL: kubectl kustomize: " + built.stderr)
    decoded = subprocess.run([kubectl, "label", "--local", "-f", "-", "warpwatch-test=1", "-o",
                              "json"], input=built.stdout, capture_output=True, text=True)
    if decoded.returncode != 0:
        raise SystemExit("FAIL: kubectl label --local: " + decoded.stderr)
    out, text, i = [], decoded.stdout, 0
    dec = json.JSONDecoder()
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        obj, i = dec.raw_decode(text, i)
        out.extend(obj["items"] if obj.get("kind") == "List" else [obj])
    return out


def selects(selector, labels):
    for k, v in selector.get("matchLabels", {}).items():
        if labels.get(k) != v:
            return False
    for e in selector.get("matchExpressions", []):
        if e["operator"] == "In" and labels.get(e["key"]) not in e["values"]:
            return False
    return True


def main():
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        print("skipped: kubectl not found")
        return 77
    objs = objects(kubectl)
    problems = []
    by = {(o["kind"], o["metadata"]["name"]): o for o in objs}
    for need in [("Deployment", "warpwatch-server"), ("DaemonSet", "warpwatch-worker"),
                 ("StatefulSet", "warpwatch-postgres"), ("Service", "warpwatch-server"),
                 ("Service", "warpwatch-worker"), ("Service", "warpwatch-postgres"),
                 ("ServiceMonitor", "warpwatch"), ("PrometheusRule", "warpwatch")]:
        if need not in by:
            problems.append("missing %s/%s" % need)
    for o in objs:
        if o["kind"] != "Namespace" and o["metadata"].get("namespace") != "warpwatch":
            problems.append("%s/%s: not in namespace warpwatch" % (o["kind"], o["metadata"]["name"]))

    workloads = [o for o in objs if o["kind"] in ("Deployment", "DaemonSet", "StatefulSet")]
    for w in workloads:
        name = "%s/%s" % (w["kind"], w["metadata"]["name"])
        tmpl = w["spec"]["template"]
        if not selects(w["spec"]["selector"], tmpl["metadata"].get("labels", {})):
            problems.append("%s: selector does not match its pod labels" % name)
        for c in tmpl["spec"]["containers"]:
            sc = c.get("securityContext", {})
            if sc.get("privileged") or sc.get("allowPrivilegeEscalation", True):
                problems.append("%s container %s: may escalate privileges" % (name, c["name"]))
            if "ALL" not in sc.get("capabilities", {}).get("drop", []):
                problems.append("%s container %s: capabilities not dropped" % (name, c["name"]))
            if "memory" not in c.get("resources", {}).get("limits", {}):
                problems.append("%s container %s: no memory limit" % (name, c["name"]))

    def ports_of(w):
        return {p.get("name"): p["containerPort"] for c in w["spec"]["template"]["spec"]["containers"]
                for p in c.get("ports", [])}

    for s in [o for o in objs if o["kind"] == "Service"]:
        name = "Service/" + s["metadata"]["name"]
        targets = [w for w in workloads if selects({"matchLabels": s["spec"].get("selector", {})},
                                                   w["spec"]["template"]["metadata"]["labels"])]
        if len(targets) != 1:
            problems.append("%s: selects %d workloads, expected 1" % (name, len(targets)))
            continue
        ports = ports_of(targets[0])
        for p in s["spec"]["ports"]:
            t = p.get("targetPort", p["port"])
            if (isinstance(t, str) and t not in ports) or (isinstance(t, int) and t not in ports.values()):
                problems.append("%s: targetPort %s is no container port of %s" %
                                (name, t, targets[0]["metadata"]["name"]))

    if ("Deployment", "warpwatch-server") in by:
        ports = ports_of(by[("Deployment", "warpwatch-server")])
        if ports.get("grpc") != 50051 or ports.get("metrics") != 9464:
            problems.append("server: ports should be grpc 50051 and metrics 9464, are %s" % ports)
    if ("DaemonSet", "warpwatch-worker") in by:
        ds = by[("DaemonSet", "warpwatch-worker")]
        if ports_of(ds).get("metrics") != 9465:
            problems.append("worker: metrics port should be 9465")
        c = ds["spec"]["template"]["spec"]["containers"][0]
        if "nvidia.com/gpu" not in c.get("resources", {}).get("limits", {}):
            problems.append("worker: does not request nvidia.com/gpu")
        if "--metrics-listen=:9465" not in c.get("args", []):
            problems.append("worker: --metrics-listen=:9465 not in its args")

    sm = by.get(("ServiceMonitor", "warpwatch"))
    if sm:
        chosen = [s for s in objs if s["kind"] == "Service" and selects(sm["spec"]["selector"],
                                                                        s["metadata"].get("labels", {}))]
        names = sorted(s["metadata"]["name"] for s in chosen)
        if names != ["warpwatch-server", "warpwatch-worker"]:
            problems.append("ServiceMonitor selects %s, expected the server and worker Services "
                            "(their names are the job labels the alert rules use)" % names)
        for ep in sm["spec"]["endpoints"]:
            for s in chosen:
                if ep["port"] not in [p.get("name") for p in s["spec"]["ports"]]:
                    problems.append("ServiceMonitor port %s is not a port of %s" %
                                    (ep["port"], s["metadata"]["name"]))

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "prometheus-rule.yaml")
        subprocess.run([os.path.join(K8S, "gen-prometheus-rule.sh"), out], check=True)
        if open(out).read() != open(os.path.join(K8S, "prometheus-rule.yaml")).read():
            problems.append("prometheus-rule.yaml differs from deploy/prometheus/rules: run "
                            "deploy/kubernetes/gen-prometheus-rule.sh")
    pr = by.get(("PrometheusRule", "warpwatch"))
    alerts = [r.get("alert") for g in (pr or {}).get("spec", {}).get("groups", []) for r in g["rules"]]
    if len(alerts) != len(df.alert_rule_exprs()):
        problems.append("PrometheusRule has %d rules, deploy/prometheus/rules %d" %
                        (len(alerts), len(df.alert_rule_exprs())))

    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print("ok: %d objects built and decoded offline (%s); wiring checked" %
          (len(objs), ", ".join(sorted({o["kind"] for o in objs}))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
