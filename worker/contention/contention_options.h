// The worker's test-only GPU contention option (--test-contention-gib, --test-contention-duty,
// --test-contention-engine): its values, their validation, how they travel to the executor's child
// and how a run records them. CUDA-free. The generator itself is contention_generator.h.
//
// TEST ONLY: the option deliberately slows the GPU. It exists to prove, on a real GPU, that the
// analysis sees a GPU-side slowdown (issues 26 4(b), 27 4): the suite runs while a bandwidth-hungry
// copy runs in the measuring process on a stream of its own. The measurement settings, and so the
// series, stay the same; only the run's labels say the run was slowed.
#ifndef WARPWATCH_WORKER_CONTENTION_CONTENTION_OPTIONS_H_
#define WARPWATCH_WORKER_CONTENTION_CONTENTION_OPTIONS_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::worker {

// Limits of the flags. Buffers much larger than L2 (50 MiB on an H100) so the copy goes to HBM.
inline constexpr double kMinContentionGib = 0.125;
inline constexpr double kMaxContentionGib = 64;
inline constexpr double kMinContentionDuty = 0.05;

// Flag names, for messages and child argv.
inline constexpr const char* kContentionGibFlag = "--test-contention-gib";
inline constexpr const char* kContentionDutyFlag = "--test-contention-duty";
inline constexpr const char* kContentionEngineFlag = "--test-contention-engine";

// Labels a run under contention carries in RunEnvironment.labels. At the start (the child, once
// the generator runs): gib, duty, engine. At the end (EndOfRun): achieved
// bandwidth, busy fraction, and the generator's error if it stopped early.
inline constexpr const char* kContentionGibLabel = "test_contention_gib";
inline constexpr const char* kContentionDutyLabel = "test_contention_duty";
inline constexpr const char* kContentionEngineLabel = "test_contention_engine";

// What moves the bytes. kKernel: a copy kernel (2 blocks x 256 threads per SM), which holds SM
// slots besides the bandwidth, so SM-bound families slow too. kCopy: cudaMemcpyAsync device to
// device, which the driver hands to a copy engine rather than the SMs, so that mostly the HBM is
// contended (whether a given driver does so is what the GPU test ContentionGpu.* measures).
enum class ContentionEngine { kKernel, kCopy };

// "kernel", "copy": the flag's values and the label's.
std::string_view ContentionEngineName(ContentionEngine engine);
// The engine named `name` ("kernel" or "copy", exactly); nullopt for anything else.
std::optional<ContentionEngine> ParseContentionEngine(std::string_view name);

struct ContentionOptions {
  std::optional<double> gib;   // size of EACH of the two device buffers, GiB; absent = off
  std::optional<double> duty;  // fraction of time the copy runs, (0, 1]; absent = 1
  std::optional<ContentionEngine> engine;  // what copies; absent = kKernel

  bool enabled() const { return gib.has_value(); }
  double effective_duty() const { return duty.value_or(1.0); }
  ContentionEngine effective_engine() const { return engine.value_or(ContentionEngine::kKernel); }
  size_t buffer_bytes() const;  // gib in bytes (0 when off)
};

// OK when off, or gib in [kMinContentionGib, kMaxContentionGib] and duty in [kMinContentionDuty, 1]
// (NaN and infinities refused). INVALID_ARGUMENT naming the flag otherwise, also for a duty or an
// engine given without a gib.
Status ValidateContentionOptions(const ContentionOptions& options);

// The flags that carry `options` to a child's argv ("--test-contention-gib=1",
// "--test-contention-duty=1", "--test-contention-engine=kernel"); values are printed so they parse
// back exactly, and the effective duty and engine are always passed. Empty when off.
std::vector<std::string> ContentionChildArgs(const ContentionOptions& options);

// The start labels of a run under contention: {test_contention_gib: "1", test_contention_duty:
// "1", test_contention_engine: "kernel"}. Empty when off.
std::map<std::string, std::string> ContentionLabels(const ContentionOptions& options);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CONTENTION_CONTENTION_OPTIONS_H_
