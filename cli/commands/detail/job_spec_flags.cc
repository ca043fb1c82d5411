// File: cli/commands/detail/job_spec_flags.cc
#include "cli/commands/detail/job_spec_flags.h"

#include <CLI/CLI.hpp>

#include "cli/commands/detail/flag_parsing.h"

namespace warpwatch::cli::detail {

CLI::Option* AddJobSpecFlags(CLI::App* cmd, JobSpecFlags* flags, const std::string& help_prefix) {
  CLI::Option* family =
      cmd->add_option("--family", flags->families,
                      help_prefix + "family name or glob (repeatable), e.g. 'memory.*'");
  cmd->add_option("--variant", flags->variants,
                  help_prefix + "variant glob (repeatable); default all");
  cmd->add_option(
      "--axis", flags->axes,
      help_prefix + "[FAMILY:]NAME=V1,V2 axis values (repeatable), e.g. reduce:n=1048576,4194304");
  cmd->add_option("--label", flags->labels,
                  help_prefix + "K=V free label, e.g. git_sha=abc123 (repeatable)");
  cmd->add_option("--priority", flags->priority, help_prefix + "higher runs first, in [-100, 100]");
  cmd->add_option("--min-samples", flags->min_samples, help_prefix + "minimum samples per point");
  cmd->add_option(
      "--max-noise", flags->max_noise,
      help_prefix + "target relative standard error: fraction (0.005) or percent (0.5%)");
  cmd->add_flag("--counters", flags->counters, help_prefix + "collect CUPTI counters after timing");
  cmd->add_flag("--node", flags->node,
                help_prefix + "a node job: the interconnect.* families on every GPU of one worker, "
                              "leased together");
  return family;
}

StatusOr<v1::JobSpec> BuildJobSpec(const JobSpecFlags& flags) {
  v1::JobSpec spec;
  for (const auto& family : flags.families) spec.add_families(family);
  for (const auto& variant : flags.variants) spec.add_variants(variant);
  for (const auto& text : flags.axes) {
    ASSIGN_OR_RETURN(*spec.add_axes(), ParseAxis(text));
  }
  for (const auto& text : flags.labels) {
    ASSIGN_OR_RETURN(auto pair, ParseKeyValue(text, "--label"));
    (*spec.mutable_labels())[pair.first] = pair.second;
  }
  spec.set_priority(flags.priority);
  spec.mutable_measurement()->set_min_samples(flags.min_samples);
  if (!flags.max_noise.empty()) {
    ASSIGN_OR_RETURN(double noise, ParseNoise(flags.max_noise));
    spec.mutable_measurement()->set_target_noise(noise);
  }
  spec.mutable_measurement()->set_collect_counters(flags.counters);
  spec.set_node_scoped(flags.node);
  return spec;
}

}  // namespace warpwatch::cli::detail
