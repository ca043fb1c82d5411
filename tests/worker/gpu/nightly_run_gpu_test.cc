// GPU tests (label gpu) of what a run of the nightly suite records, measured by the real
// `warpwatch-worker run` (WARPWATCH_WORKER_PATH) on this GPU and read back from the file it writes:
// every planned point measured, real kernel names, the kernels' own time, stop reasons and clocks,
// the book's two-kernel reductions named launch by launch, and a run file that reads back as the
// run. These replace checks of the committed H100 JSON, which no engine change could fail.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/catalog/catalog.h"
#include "common/catalog/plan.h"
#include "tests/worker/gpu/gpu_test_support.h"
#include "tests/worker/support/shell_command.h"
#include "worker/cli/result_json.h"
#include "worker/cli/run_command.h"
#include "worker/cli/run_options.h"
#include "worker/stats/stopping_rule.h"

namespace warpwatch::worker {
namespace {

// Variants whose timed region is copies only (cudaMemcpy*): no kernel for CUPTI to time or name.
const std::set<std::string> kCopiesOnly = {
    "memory.coalescing/memcpy", "transfer.host_device/pageable", "transfer.host_device/pinned",
    "transfer.host_device/write_combining", "transfer.host_device/small_copies"};

// A run of the worker binary and the file it wrote.
struct WorkerRun {
  CommandOutput process;
  std::string file_text;  // the --out file; empty when it was not written
  v1::RunResult result;   // parsed from file_text
  std::string parse_error;
};

// Runs `warpwatch-worker run <flags> --out <temporary file>` and reads the file back.
WorkerRun RunWorker(const std::string& flags) {
  WorkerRun run;
  char dir[] = "/tmp/ww_nightly_run_XXXXXX";
  if (::mkdtemp(dir) == nullptr) {
    run.parse_error = "mkdtemp failed";
    return run;
  }
  const std::string out = std::string(dir) + "/run.json";
  run.process = RunShellCommand(std::string(WARPWATCH_WORKER_PATH) + " run " + flags + " --out " +
                                out + " 2>&1");
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  run.file_text = text.str();
  std::remove(out.c_str());
  ::rmdir(dir);
  StatusOr<v1::RunResult> parsed = RunResultFromJson(run.file_text);
  if (parsed.ok()) {
    run.result = *std::move(parsed);
  } else {
    run.parse_error = parsed.status().ToString();
  }
  return run;
}

// The worker's last lines: enough to see why a run failed without the whole progress log.
std::string Tail(const std::string& text, size_t chars = 4000) {
  return text.size() <= chars ? text : "..." + text.substr(text.size() - chars);
}

// The canonical keys `options` expands to, in the order the run measures them.
std::vector<std::string> PlannedKeys(const RunOptions& options) {
  std::vector<std::string> keys;
  StatusOr<v1::JobSpec> spec = BuildJobSpec(options);
  EXPECT_TRUE(spec.ok()) << spec.status().ToString();
  if (!spec.ok()) return keys;
  StatusOr<std::vector<catalog::Point>> points = catalog::ExpandSpec(*spec, catalog::PlanLimits{});
  EXPECT_TRUE(points.ok()) << points.status().ToString();
  if (!points.ok()) return keys;
  for (const catalog::Point& p : *points) keys.push_back(p.Canonical());
  return keys;
}

std::vector<std::string> MeasuredKeys(const v1::RunResult& run) {
  std::vector<std::string> keys;
  for (const v1::Measurement& m : run.measurements()) keys.push_back(m.case_().canonical());
  return keys;
}

bool KernelOnly(const v1::Measurement& m) {
  const catalog::FamilyInfo* family = catalog::FindFamily(m.case_().family());
  return family != nullptr && family->timed_region.empty();
}

// What every measured point of a run must carry; `key` names the point in failures.
void ExpectSamplesClocksAndStop(const v1::Measurement& m) {
  const std::string key = m.case_().canonical();
  EXPECT_TRUE(m.stop_reason() == kStopNoise || m.stop_reason() == kStopConverged ||
              m.stop_reason() == kStopMaxSamples || m.stop_reason() == kStopTimeout)
      << key << ": stop reason \"" << m.stop_reason() << "\"";
  EXPECT_GT(m.samples_seconds_size(), 0) << key;
  EXPECT_GT(m.stats().median(), 0) << key;
  EXPECT_GT(m.median_sm_clock_mhz(), 0) << key << ": no SM clock";
  EXPECT_EQ(m.sample_sm_clock_mhz_size(), m.samples_seconds_size()) << key;
  EXPECT_EQ(m.sample_throttled_size(), m.samples_seconds_size()) << key;
}

// A point whose timed region is copies only has no kernel, and says why it has no kernel time.
void ExpectNoKernel(const v1::Measurement& m) {
  const std::string key = m.case_().canonical();
  EXPECT_EQ(m.kernels_size(), 0) << key << ": a copy-only region listed kernels";
  EXPECT_NE(m.duration_note().find("launches no kernel"), std::string::npos)
      << key << ": " << m.duration_note();
}

// A point that launches kernels lists them by their real symbols, demangled, with their own GPU
// time; a kernel-only point's headline agrees with it (Measurement.times_disagree unset).
void ExpectNamedKernelsWithTheirOwnTime(const v1::Measurement& m) {
  const std::string key = m.case_().canonical();
  ASSERT_GE(m.kernels_size(), 1) << key << ": " << m.duration_note();
  EXPECT_EQ(m.kernel_name(), m.kernels(0).name()) << key;
  for (const v1::KernelInfo& k : m.kernels()) {
    // A real symbol (an Itanium one, behind nvcc's per-file prefix for -rdc code), demangled: no
    // label like "coalescing_copy<contiguous>" and no raw symbol as the name.
    EXPECT_TRUE(k.mangled().rfind("_Z", 0) == 0 || k.mangled().rfind("__nv_static_", 0) == 0)
        << key << ": symbol \"" << k.mangled() << "\"";
    EXPECT_FALSE(k.name().empty()) << key << ": nameless kernel " << k.mangled();
    EXPECT_EQ(k.name().find("_Z"), std::string::npos) << key << ": " << k.name();
  }
  EXPECT_GT(m.kernel_median_seconds(), 0) << key << ": " << m.duration_note();
  if (KernelOnly(m)) {
    EXPECT_FALSE(m.times_disagree())
        << key << ": headline " << m.stats().median() * 1e6 << " us, kernels "
        << m.kernel_median_seconds() * 1e6 << " us, traced events "
        << m.traced_event_median_seconds() * 1e6 << " us, tracing cost " << m.tracing_cost() * 100
        << " %";
  }
}

class NightlyRunGpuTest : public ::testing::Test {
 protected:
  void SetUp() override { SKIP_WITHOUT_CUDA_DEVICE(); }
};

// The command that recorded tests/fixtures/h100_nightly.json, on this GPU: every point of the
// nightly plan measured OK, in plan order, each with its clocks, stop reason, and (unless its timed
// region is copies only) its kernels' real names and own time. One test for the whole suite: it
// takes the suite's time (about 2 minutes on an H100), which one process per property would
// multiply.
TEST_F(NightlyRunGpuTest, EveryNightlyPointIsMeasuredWithItsKernelsNamesTimeAndClocks) {
  const WorkerRun run = RunWorker("--counters");
  ASSERT_TRUE(run.parse_error.empty()) << run.parse_error << "\n" << Tail(run.process.text);
  // A FAILED point exits 3: the points below say which.
  EXPECT_EQ(run.process.exit_code, kRunExitOk) << Tail(run.process.text);
  const std::vector<std::string> planned = PlannedKeys(RunOptions{});
  ASSERT_FALSE(planned.empty());
  ASSERT_EQ(MeasuredKeys(run.result), planned) << "the run did not measure the nightly plan";
  // The clock the samples were judged against (never the maximum by assumption where NVML can
  // say: application clocks the operator set are the setting).
  const v1::RunEnvironment& env = run.result.environment();
  if (env.clock_source() == "nvml") {
    EXPECT_GT(env.sm_clock_setting_mhz(), 0) << env.ShortDebugString();
    EXPECT_TRUE(env.sm_clock_policy() == "boost" || env.sm_clock_policy() == "applications")
        << env.ShortDebugString();
  }

  int ok = 0, copies_only = 0;
  for (const v1::Measurement& m : run.result.measurements()) {
    const std::string key = m.case_().canonical();
    EXPECT_EQ(m.status(), v1::POINT_STATUS_OK) << key << ": " << m.error();
    if (m.status() != v1::POINT_STATUS_OK) continue;
    ++ok;
    EXPECT_TRUE(m.verified()) << key;
    ExpectSamplesClocksAndStop(m);
    if (kCopiesOnly.count(m.case_().family() + "/" + m.case_().variant()) > 0) {
      ++copies_only;
      ExpectNoKernel(m);
    } else {
      ExpectNamedKernelsWithTheirOwnTime(m);
    }
  }
  std::printf("%d nightly points measured OK (%d copies only) on %s\n", ok, copies_only,
              run.result.environment().device().name().c_str());
  EXPECT_GT(copies_only, 0) << "no copy-only point left in the nightly plan: update kCopiesOnly";
}

// reduce/unrolling8 (the book's two-kernel reduction): each point lists its block kernel and the
// final one, and the counter pass files each launch under its own kernel.
TEST_F(NightlyRunGpuTest, TheBookReductionsNameBothTheirKernelsLaunchByLaunch) {
  const WorkerRun run = RunWorker("--counters --family reduce --variant unrolling8");
  ASSERT_TRUE(run.parse_error.empty()) << run.parse_error << "\n" << Tail(run.process.text);
  EXPECT_EQ(run.process.exit_code, kRunExitOk) << Tail(run.process.text);
  ASSERT_GE(run.result.measurements_size(), 1);
  for (const v1::Measurement& m : run.result.measurements()) {
    ASSERT_EQ(m.status(), v1::POINT_STATUS_OK) << Explain(m);
    ASSERT_EQ(m.kernels_size(), 2) << Explain(m);
    EXPECT_EQ(m.kernels(0).name(), "UnrollingKernel<8>") << Explain(m);
    EXPECT_EQ(m.kernels(1).name(), "ShuffleReduceKernel") << Explain(m);
    EXPECT_EQ(m.kernel_name(), "UnrollingKernel<8>") << Explain(m);
    if (m.counters_note().find("not permitted") != std::string::npos) {
      std::printf("counters not permitted here: %s\n", m.counters_note().c_str());
      continue;
    }
    EXPECT_TRUE(m.counters_note().empty()) << m.counters_note();
    ASSERT_EQ(m.launches_size(), 2) << Explain(m);
    EXPECT_EQ(m.launches(0).kernel(), 0) << Explain(m);
    EXPECT_EQ(m.launches(1).kernel(), 1) << Explain(m);
    EXPECT_FALSE(m.kernels(1).counters().empty()) << "the final kernel has no counters of its own";
  }
}

// The file `run --out` writes reads back as the run it recorded, field by field, with counters,
// per-launch counters and a copy-only point in it (what `warpwatch upload` and the replay
// executor read).
TEST_F(NightlyRunGpuTest, TheRunFileReadsBackAsTheRunItRecorded) {
  const WorkerRun run = RunWorker(
      "--counters --family reduce --family memory.coalescing --variant reduce/unrolling8 "
      "--variant memory.coalescing/memcpy");
  ASSERT_TRUE(run.parse_error.empty()) << run.parse_error << "\n" << Tail(run.process.text);
  EXPECT_EQ(run.process.exit_code, kRunExitOk) << Tail(run.process.text);
  RunOptions options;
  options.families = {"reduce", "memory.coalescing"};
  options.variants = {"reduce/unrolling8", "memory.coalescing/memcpy"};
  ASSERT_EQ(MeasuredKeys(run.result), PlannedKeys(options));
  EXPECT_NE(run.result.command().find(" run --counters"), std::string::npos)
      << "RunResult.command: " << run.result.command();
  EXPECT_FALSE(run.result.environment().device().uuid().empty());

  // The file holds what was measured, not a husk that would read back just as well: samples with
  // their clocks, kernels, and counters per point and per launch.
  for (const v1::Measurement& m : run.result.measurements()) {
    ASSERT_EQ(m.status(), v1::POINT_STATUS_OK) << Explain(m);
    EXPECT_GT(m.samples_seconds_size(), 0) << Explain(m);
    EXPECT_EQ(m.sample_sm_clock_mhz_size(), m.samples_seconds_size()) << Explain(m);
    if (m.case_().family() != "reduce") continue;
    EXPECT_EQ(m.kernels_size(), 2) << Explain(m);
    if (m.counters_note().find("not permitted") != std::string::npos) continue;
    EXPECT_FALSE(m.counters().empty()) << Explain(m);
    ASSERT_EQ(m.launches_size(), 2) << Explain(m);
    EXPECT_FALSE(m.launches(1).counters().empty()) << Explain(m);
  }

  StatusOr<std::string> again = RunResultToJson(run.result);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  StatusOr<v1::RunResult> back = RunResultFromJson(*again);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  // Field by field (maps compare as maps: their serialised order is unspecified).
  std::string differences;
  google::protobuf::util::MessageDifferencer differ;
  differ.ReportDifferencesToString(&differences);
  EXPECT_TRUE(differ.Compare(*back, run.result)) << differences;
}

}  // namespace
}  // namespace warpwatch::worker
