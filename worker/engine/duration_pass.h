// The duration pass: a few more samples of a point with CUPTI's activity tracing on, after the
// timed samples (so tracing never touches them). It gives each kernel's own GPU time (the clock
// Nsight Compute's gpu__time_duration reads) and the real names of every kernel Run() launches.
#ifndef WARPWATCH_WORKER_ENGINE_DURATION_PASS_H_
#define WARPWATCH_WORKER_ENGINE_DURATION_PASS_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"
#include "worker/engine/case_sampler.h"

namespace warpwatch::worker {

// Takes `samples` samples with `sampler` while tracing and fills the Measurement's kernels (name,
// demangled, mangled, median_seconds, launches), sample_kernel_seconds, kernel_median_seconds,
// traced_event_median_seconds, tracing_cost, event_kernel_gap and times_disagree (the headline,
// m->stats().median(), which must be set, against the kernels when tracing cost little; else the
// traced events: CompareWithKernels).
// `stamp_symbol`: the clock stamp kernel's symbol (the marker around each Run()).
// `launch_symbols` (may be null) receives the symbols of one traced Run()'s launches in launch
// order, for the counter pass. Errors (CUPTI unavailable, a failed sample) leave the timings
// valid; the caller records them in duration_note. Records of `foreign_symbols` (kernels of this
// process that are not the point's: WithoutKernels) are dropped before the split.
Status RunDurationPass(CaseSampler& sampler, int samples, const std::string& stamp_symbol,
                       const std::vector<std::string>& foreign_symbols, v1::Measurement* m,
                       std::vector<std::string>* launch_symbols);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_DURATION_PASS_H_
