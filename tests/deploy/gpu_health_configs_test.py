#!/usr/bin/env python3
# The GPU health wrappers of deploy/ checked offline (ctest deploy.gpu_health_configs):
# - deploy/node-problem-detector/warpwatch-gpu-health.json against node-problem-detector's
#   documented custom plugin monitor format (docs/custom_plugin_monitor.md of
#   kubernetes/node-problem-detector: plugin "custom", pluginConfig with invoke_interval, timeout,
#   max_output_length, concurrency, enable_message_change_based_condition_update; source;
#   metricsReporting; conditions of type/reason/message; rules of type temporary|permanent, a
#   permanent rule naming a declared condition, reason, path, optional args and timeout), the
#   plugin's path naming the script shipped next to it, and Go durations that make sense;
# - the shell scripts with shellcheck (the NHC file as bash), when shellcheck is installed.
# The scripts' behaviour against a server is deploy.GpuHealthScriptsTest.*.
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_files as df  # noqa: E402

NPD = os.path.join(df.ROOT, "deploy", "node-problem-detector")
SCRIPTS = [os.path.join(NPD, "warpwatch-gpu-health.sh"),
           os.path.join(df.ROOT, "deploy", "slurm", "warpwatch-health-check.sh"),
           os.path.join(df.ROOT, "deploy", "kubernetes", "gpu-health", "taint-nodes.sh")]
NHC = os.path.join(df.ROOT, "deploy", "slurm", "warpwatch.nhc")

PLUGIN_CONFIG_KEYS = {"invoke_interval", "timeout", "max_output_length", "concurrency",
                      "enable_message_change_based_condition_update", "skip_initial_status"}
TOP_KEYS = {"plugin", "pluginConfig", "source", "metricsReporting", "conditions", "rules"}
RULE_KEYS = {"type", "condition", "reason", "path", "args", "timeout"}


def seconds(duration):
    m = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", duration)
    if not m or not duration:
        raise SystemExit("FAIL: %r is not a Go duration" % duration)
    h, mi, s = (int(x or 0) for x in m.groups())
    return h * 3600 + mi * 60 + s


def check_npd(errors):
    path = os.path.join(NPD, "warpwatch-gpu-health.json")
    config = json.load(open(path))
    if set(config) - TOP_KEYS:
        errors.append("unknown keys %s" % sorted(set(config) - TOP_KEYS))
    if config.get("plugin") != "custom":
        errors.append("plugin must be \"custom\"")
    pc = config.get("pluginConfig", {})
    if set(pc) - PLUGIN_CONFIG_KEYS:
        errors.append("unknown pluginConfig keys %s" % sorted(set(pc) - PLUGIN_CONFIG_KEYS))
    interval, timeout = seconds(pc["invoke_interval"]), seconds(pc["timeout"])
    if timeout >= interval:
        errors.append("timeout must be shorter than invoke_interval")
    if not isinstance(pc.get("max_output_length"), int) or pc["max_output_length"] < 80:
        errors.append("max_output_length: an integer of at least 80 (the check's line)")
    if not config.get("source"):
        errors.append("source: required")
    conditions = {c["type"]: c for c in config.get("conditions", [])}
    for c in config.get("conditions", []):
        if set(c) != {"type", "reason", "message"}:
            errors.append("condition %s: keys type, reason, message" % c)
        for key in ("type", "reason"):
            if not re.fullmatch(r"[A-Z][A-Za-z]+", c.get(key, "")):
                errors.append("condition %s: %s is not CamelCase" % (c.get("type"), key))
    rules = config.get("rules", [])
    if not rules:
        errors.append("rules: none")
    for r in rules:
        if set(r) - RULE_KEYS:
            errors.append("rule: unknown keys %s" % sorted(set(r) - RULE_KEYS))
        if r.get("type") not in ("temporary", "permanent"):
            errors.append("rule type %r" % r.get("type"))
        if r.get("type") == "permanent" and r.get("condition") not in conditions:
            errors.append("permanent rule names undeclared condition %r" % r.get("condition"))
        if not re.fullmatch(r"[A-Z][A-Za-z]+", r.get("reason", "")):
            errors.append("rule reason %r is not CamelCase" % r.get("reason"))
        shipped = os.path.join(NPD, os.path.basename(r.get("path", "")))
        if not os.path.isabs(r.get("path", "")) or not os.access(shipped, os.X_OK):
            errors.append("rule path %r: absolute, naming an executable shipped in %s"
                          % (r.get("path"), NPD))
        if "timeout" in r and seconds(r["timeout"]) > timeout:
            errors.append("rule timeout over pluginConfig.timeout")


def main():
    errors = []
    check_npd(errors)
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        print("note: shellcheck not found; scripts not linted")
    else:
        for cmd in ([shellcheck] + SCRIPTS, [shellcheck, "-s", "bash", NHC]):
            lint = subprocess.run(cmd, capture_output=True, text=True)
            if lint.returncode != 0:
                errors.append("shellcheck: " + lint.stdout + lint.stderr)
    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print("ok: node-problem-detector config and %d scripts" % (len(SCRIPTS) + 1))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
