#!/usr/bin/env bash
# node-problem-detector custom plugin (warpwatch-gpu-health.json): this node's GPU health verdict
# from warpwatch (docs/gpu_health.md). Exit 0 OK (every GPU healthy), 1 problem (a GPU degraded
# or failing: the NodeCondition turns True with the message), 2 unknown (no verdict, or the check
# itself failed: node-problem-detector leaves the condition as it was).
#   WARPWATCH_SERVER, WARPWATCH_TOKEN_FILE, WARPWATCH_TLS_CA: as for the warpwatch CLI
#   WARPWATCH_CLI: the warpwatch binary (default: warpwatch on PATH)
#   WARPWATCH_NODE: the node's name as its worker registered it (default: hostname)
set -u
cli=${WARPWATCH_CLI:-warpwatch}
node=${WARPWATCH_NODE:-$(hostname)}
out=$("$cli" health --check --node "$node" 2>/dev/null)
rc=$?
echo "${out%%$'\n'*}"
case $rc in
  0) exit 0 ;;
  1 | 2) exit 1 ;;
  *) exit 2 ;;
esac
