#!/usr/bin/env bash
# Slurm health check (slurm.conf HealthCheckProgram, or run from NHC: warpwatch.nhc): drains
# this node with warpwatch's reason when one of its GPUs is degraded or failing against its
# same-night peers (docs/gpu_health.md), and resumes a node it drained once every GPU is healthy
# again. An unknown verdict, or a check that fails, changes nothing.
#   WARPWATCH_DRAIN_ON: degraded (default: degraded or failing drain) or failing
#   WARPWATCH_SERVER, WARPWATCH_TOKEN_FILE, WARPWATCH_TLS_CA: as for the warpwatch CLI
#   WARPWATCH_CLI (default warpwatch), SCONTROL (default scontrol)
#   WARPWATCH_NODE: the Slurm node name, also the worker's hostname (default: hostname -s)
set -u
cli=${WARPWATCH_CLI:-warpwatch}
scontrol=${SCONTROL:-scontrol}
node=${WARPWATCH_NODE:-$(hostname -s)}
drain_on=${WARPWATCH_DRAIN_ON:-degraded}
case $drain_on in
  degraded | failing) ;;
  *) echo "warpwatch-health-check: WARPWATCH_DRAIN_ON must be degraded or failing" >&2; exit 2 ;;
esac
out=$("$cli" health --check --node "$node" 2>/dev/null)
rc=$?
line=${out%%$'\n'*}
# Slurm keeps reasons short; the full evidence is one `warpwatch health --node` away.
reason="warpwatch: ${line#WARPWATCH GPU HEALTH }"
reason=${reason:0:200}
drain=false
case $rc in
  2) drain=true ;;
  1) [ "$drain_on" = degraded ] && drain=true ;;
  0) ;;
  *) echo "$line"; exit 0 ;;  # unknown: never drain on missing data
esac
if $drain; then
  echo "draining $node: $reason"
  exec "$scontrol" update NodeName="$node" State=DRAIN Reason="$reason"
fi
# Healthy (or degraded under WARPWATCH_DRAIN_ON=failing): resume only a drain of our own.
current=$("$scontrol" show node "$node" 2>/dev/null | sed -n 's/.*Reason=\(.*\)/\1/p')
if [ "${current#warpwatch:}" != "$current" ]; then
  echo "resuming $node: $line"
  exec "$scontrol" update NodeName="$node" State=RESUME
fi
echo "$line"
