// File: cli/format/gpu_health_view.h
// GPU health verdicts for people (`warpwatch health`), and as Nagios plugin lines
// (`warpwatch health --check`, read by node-problem-detector and Slurm health checks).
#ifndef WARPWATCH_CLI_FORMAT_GPU_HEALTH_VIEW_H_
#define WARPWATCH_CLI_FORMAT_GPU_HEALTH_VIEW_H_

#include <ostream>
#include <string>
#include <vector>

#include "warpwatch/v1/gpu_health.pb.h"

namespace warpwatch::cli {

// "healthy", "degraded", "failing", "unknown".
std::string GpuHealthStateName(v1::GpuHealthState state);

// The state a check of several GPUs reports: the worst, FAILING > DEGRADED > UNKNOWN > HEALTHY
// (a node with one failing GPU is failing whatever its others say); UNKNOWN when `gpus` is empty.
v1::GpuHealthState WorstState(const std::vector<v1::GpuHealth>& gpus);

// HOST, GPU, UUID, MODEL, STATE, SINCE, then the fingerprint (and who overruled) per GPU.
void PrintGpuHealthTable(const std::vector<v1::GpuHealth>& gpus, std::ostream& out);

// The plugin output: "WARPWATCH GPU HEALTH DEGRADED - 1 of 8 GPUs degraded: GPU-... (host gpu 5):
// <fingerprint>" on the first line, then one line per GPU not healthy.
void PrintNagiosCheck(const std::vector<v1::GpuHealth>& gpus, std::ostream& out);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_GPU_HEALTH_VIEW_H_
