// Flags of `warpwatch-worker run` and their translation into a JobSpec. CUDA-free.
#ifndef WARPWATCH_WORKER_CLI_RUN_OPTIONS_H_
#define WARPWATCH_WORKER_CLI_RUN_OPTIONS_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/job.pb.h"
#include "worker/contention/contention_options.h"

namespace warpwatch::worker {

struct RunOptions {
  std::vector<std::string> families;   // --family GLOB (repeatable); empty = "*"
  std::vector<std::string> variants;   // --variant GLOB (repeatable)
  std::vector<std::string> axes;       // --axis [FAMILY:]NAME=V1,V2 (repeatable)
  int device = 0;                      // --device N
  // --node: a node job (JobSpec.node_scoped), whose families use every GPU of the host with
  // --device as the engine's GPU. Implied when every --family is an exact node-scoped name.
  bool node = false;
  double max_noise_percent = 0;        // --max-noise P: target rel. std. deviation in %; 0 = default
  int min_samples = 0;                 // --min-samples N; 0 = default
  int max_samples = 0;                 // --max-samples N; 0 = default
  double point_timeout_seconds = 0;    // --timeout S; 0 = default
  double min_time_seconds = 0;         // --min-time S: GPU time before stopping; 0 = default
  int sample_groups = 0;               // --sample-groups N: fresh allocations per group; 0 = 1
  bool no_l2_flush = false;            // --hot: never flush L2
  bool counters = false;               // --counters
  std::string out;                     // --out results.json; empty = no file
  // --test-contention-gib / --test-contention-duty (hidden, TEST ONLY: slows the GPU on purpose).
  // Not part of the JobSpec: the run keeps its series; its environment labels say it was slowed.
  ContentionOptions contention;
};

// INVALID_ARGUMENT naming the flag ("--axis \"n=abc\": ...") on a malformed value. Values are not
// checked against the catalog here: ExpandSpec does that.
StatusOr<v1::JobSpec> BuildJobSpec(const RunOptions& options);

// True when `families` is non-empty and every entry is the exact name of a node-scoped family.
bool NamesOnlyNodeFamilies(const std::vector<std::string>& families);

// Parses one --axis value: "[FAMILY:]NAME=V1,V2".
StatusOr<v1::AxisOverride> ParseAxisFlag(const std::string& flag);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CLI_RUN_OPTIONS_H_
