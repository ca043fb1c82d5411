// File: cli/commands/detail/job_spec_flags.h
// The flags that say what a job measures (families, variants, axes, labels, priority, stopping
// rule, counters), shared by `submit` and `schedule create|update` (a schedule's job template),
// and the JobSpec they describe. Where a job runs (the device selector) stays with each command.
#ifndef WARPWATCH_CLI_COMMANDS_DETAIL_JOB_SPEC_FLAGS_H_
#define WARPWATCH_CLI_COMMANDS_DETAIL_JOB_SPEC_FLAGS_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/job.pb.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace warpwatch::cli::detail {

struct JobSpecFlags {
  std::vector<std::string> families;
  std::vector<std::string> variants;
  std::vector<std::string> axes;    // "[FAMILY:]NAME=V1,V2"
  std::vector<std::string> labels;  // "K=V"
  int priority = 0;
  int min_samples = 0;
  std::string max_noise;  // "0.005" or "0.5%"
  bool counters = false;
  bool node = false;  // --node: a node job (JobSpec.node_scoped): every GPU of one worker at once
};

// Adds --family, --variant, --axis, --label, --priority, --min-samples, --max-noise and --counters
// to `cmd`, bound to `flags` (which must outlive `cmd`), each help text led by `help_prefix`.
// Returns the --family option, for the caller to make it required.
CLI::Option* AddJobSpecFlags(CLI::App* cmd, JobSpecFlags* flags, const std::string& help_prefix);

// The JobSpec the flags describe, without a selector. INVALID_ARGUMENT naming the flag for a
// malformed --axis, --label or --max-noise.
StatusOr<v1::JobSpec> BuildJobSpec(const JobSpecFlags& flags);

}  // namespace warpwatch::cli::detail

#endif  // WARPWATCH_CLI_COMMANDS_DETAIL_JOB_SPEC_FLAGS_H_
