#!/usr/bin/env bash
# Labels and taints each GPU node with its warpwatch health verdict (docs/gpu_health.md), run by
# the opt-in CronJob of this folder: label warpwatch.io/gpu-health=healthy|degraded|failing|
# unknown, taint warpwatch.io/gpu-health=degraded:PreferNoSchedule for a degraded node and
# warpwatch.io/gpu-health=failing:NoSchedule for a failing one, and the taint removed once the
# node is healthy again. An unknown verdict (or a failed check) leaves the node's taint as it is.
#   NODE_SELECTOR: which nodes (default nvidia.com/gpu.present=true)
#   WARPWATCH_CLI (default warpwatch), KUBECTL (default kubectl), and the CLI's WARPWATCH_* env
set -u
cli=${WARPWATCH_CLI:-warpwatch}
kubectl=${KUBECTL:-kubectl}
selector=${NODE_SELECTOR:-nvidia.com/gpu.present=true}
key=warpwatch.io/gpu-health
nodes=$("$kubectl" get nodes -l "$selector" -o 'jsonpath={.items[*].metadata.name}') || exit 1
status=0
for node in $nodes; do
  out=$("$cli" health --check --node "$node" 2>/dev/null)
  rc=$?
  line=${out%%$'\n'*}
  case $rc in
    0) state=healthy ;;
    1) state=degraded ;;
    2) state=failing ;;
    *) state=unknown ;;
  esac
  echo "$node: $state: $line"
  "$kubectl" label node "$node" "$key=$state" --overwrite >/dev/null || status=1
  case $state in
    healthy)
      "$kubectl" taint node "$node" "$key-" >/dev/null 2>&1 || true  # absent: nothing to remove
      ;;
    degraded | failing)
      effect=PreferNoSchedule
      [ "$state" = failing ] && effect=NoSchedule
      "$kubectl" taint node "$node" "$key-" >/dev/null 2>&1 || true  # the other effect, if any
      "$kubectl" taint node "$node" "$key=$state:$effect" --overwrite >/dev/null || status=1
      ;;
  esac
done
exit $status
