// The node's GPU topology for the run's environment: every pair of this process's CUDA devices,
// with the NVLinks (count, version, nominal rate; direct or through NVSwitches) and the PCIe path
// NVML reports (nvmlDeviceGetNvLinkState / RemoteDeviceType / RemotePciInfo / Version,
// nvmlDeviceGetTopologyCommonAncestor). NVML is dlopen'ed (libnvidia-ml.so.1).
#ifndef WARPWATCH_WORKER_DEVICE_NVML_TOPOLOGY_H_
#define WARPWATCH_WORKER_DEVICE_NVML_TOPOLOGY_H_

#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker {

// Fills env->gpu_links for a process seeing two or more CUDA devices; on one device leaves them
// empty. Never fails the run: without NVML, or when a call fails, env->topology_note says what
// is missing (links NVML could not read are left out, never guessed).
void AddNodeTopology(v1::RunEnvironment* env);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DEVICE_NVML_TOPOLOGY_H_
