// Tests of the fault-proof executor with a fake child (no GPU): crashes, sticky errors, hangs and
// early deaths cost exactly their point; the other points are measured.
#include "worker/executor/process_executor.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <set>
#include <thread>

namespace warpwatch::worker {
namespace {

catalog::Point P(const std::string& variant) {
  catalog::Point p;
  p.family = "testing.fault";
  p.variant = variant;
  p.params["n"] = 1024;
  return p;
}

struct Recorded {
  std::vector<size_t> started;
  std::vector<size_t> finished;
  int environments = 0;
};

StatusOr<ExecutionResult> RunPoints(const std::vector<std::string>& variants, Recorded* rec,
                                    double point_timeout = 5, double grace = 0.5,
                                    std::function<bool()> cancelled = nullptr) {
  ProcessExecutorOptions options;
  options.child_argv = {FAKE_EXEC_CHILD_PATH};
  options.grace_seconds = grace;
  ProcessExecutor executor(options);
  ExecutionRequest request;
  for (const std::string& v : variants) request.points.push_back(P(v));
  request.settings.set_point_timeout_seconds(point_timeout);
  ExecutionCallbacks cb;
  cb.on_environment = [rec](const v1::RunEnvironment&) { ++rec->environments; };
  cb.on_point_started = [rec](size_t i, const catalog::Point&) { rec->started.push_back(i); };
  cb.on_measurement = [rec](size_t i, const v1::Measurement&) { rec->finished.push_back(i); };
  cb.cancelled = std::move(cancelled);
  return executor.Execute(request, cb);
}

std::string Describe(const ExecutionResult& r) {
  std::string out;
  for (const auto& m : r.measurements) {
    out += m.case_().canonical() + " " + v1::PointStatus_Name(m.status()) + " " + m.error() + "\n";
  }
  return out;
}

TEST(ProcessExecutor, AllGoodPointsRunInOneChildInOrder) {
  Recorded rec;
  auto r = RunPoints({"ok", "ok", "ok"}, &rec);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->measurements.size(), 3u);
  std::set<std::string> children;
  for (const auto& m : r->measurements) {
    EXPECT_EQ(m.status(), v1::POINT_STATUS_OK) << Describe(*r);
    children.insert(m.kernel_name());
  }
  EXPECT_EQ(children.size(), 1u);
  EXPECT_EQ(rec.finished, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(rec.environments, 1);
  EXPECT_EQ(r->environment.hostname(), "fake-host");
  EXPECT_EQ(r->environment.temperature_c_end(), 55);
  EXPECT_EQ(r->measurements[1].case_().canonical(), "testing.fault/ok?n=1024");
}

// The end of a run adds labels (the test contention's achieved bandwidth) to the start's.
TEST(ProcessExecutor, EndOfRunLabelsJoinTheEnvironmentsLabels) {
  Recorded rec;
  auto r = RunPoints({"ok", "ok"}, &rec);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& labels = r->environment.labels();
  ASSERT_EQ(labels.count("at_start"), 1u);
  EXPECT_EQ(labels.at("at_start"), "s");
  ASSERT_EQ(labels.count("at_end"), 1u);
  EXPECT_EQ(labels.at("at_end"), r->measurements[1].kernel_name());  // "pid N" of the child
}

TEST(ProcessExecutor, CrashFailsOnlyItsPointAndTheRestRunInAFreshChild) {
  Recorded rec;
  auto r = RunPoints({"ok", "crash", "ok"}, &rec);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->measurements[0].status(), v1::POINT_STATUS_OK) << Describe(*r);
  EXPECT_EQ(r->measurements[1].status(), v1::POINT_STATUS_FAILED) << Describe(*r);
  EXPECT_NE(r->measurements[1].error().find("signal 6"), std::string::npos) << Describe(*r);
  EXPECT_EQ(r->measurements[1].case_().variant(), "crash");
  EXPECT_EQ(r->measurements[2].status(), v1::POINT_STATUS_OK) << Describe(*r);
  EXPECT_NE(r->measurements[0].kernel_name(), r->measurements[2].kernel_name());
  EXPECT_EQ(rec.finished, (std::vector<size_t>{0, 1, 2}));
}

TEST(ProcessExecutor, StickyErrorKeepsTheChildsErrorAndContinues) {
  Recorded rec;
  auto r = RunPoints({"sticky", "ok", "sticky", "ok"}, &rec);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->measurements[0].status(), v1::POINT_STATUS_FAILED);
  EXPECT_NE(r->measurements[0].error().find("cudaErrorIllegalAddress"), std::string::npos);
  EXPECT_EQ(r->measurements[1].status(), v1::POINT_STATUS_OK) << Describe(*r);
  EXPECT_EQ(r->measurements[2].status(), v1::POINT_STATUS_FAILED);
  EXPECT_EQ(r->measurements[3].status(), v1::POINT_STATUS_OK) << Describe(*r);
}

TEST(ProcessExecutor, WatchdogKillsAHungPoint) {
  Recorded rec;
  auto r = RunPoints({"ok", "hang", "ok"}, &rec, /*point_timeout=*/0.5, /*grace=*/0.5);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->measurements[1].status(), v1::POINT_STATUS_FAILED);
  EXPECT_NE(r->measurements[1].error().find("timed out after 1 s"), std::string::npos)
      << Describe(*r);
  EXPECT_EQ(r->measurements[2].status(), v1::POINT_STATUS_OK) << Describe(*r);
}

TEST(ProcessExecutor, ChildExitingWithoutReportFailsThatPoint) {
  Recorded rec;
  auto r = RunPoints({"exit", "ok"}, &rec);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->measurements[0].status(), v1::POINT_STATUS_FAILED);
  EXPECT_NE(r->measurements[0].error().find("exit code 1"), std::string::npos) << Describe(*r);
  EXPECT_EQ(r->measurements[1].status(), v1::POINT_STATUS_OK);
}

TEST(ProcessExecutor, ChildDyingBeforeStartingChargesTheNextPoint) {
  Recorded rec;
  auto r = RunPoints({"ok", "die_before_start", "ok"}, &rec);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->measurements[1].status(), v1::POINT_STATUS_FAILED);
  EXPECT_NE(r->measurements[1].error().find("before starting"), std::string::npos)
      << Describe(*r);
  EXPECT_EQ(r->measurements[2].status(), v1::POINT_STATUS_OK);
}

TEST(ProcessExecutor, FatalChildEndsTheRunUnavailable) {
  Recorded rec;
  auto r = RunPoints({"fatal", "ok"}, &rec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(r.status().message().find("no CUDA device"), std::string::npos);
}

TEST(ProcessExecutor, CancellationStopsAHungChild) {
  Recorded rec;
  std::atomic<bool> cancel{false};
  auto r = RunPoints({"ok", "hang", "ok"}, &rec, /*point_timeout=*/60, /*grace=*/60, [&] {
    if (rec.started.size() >= 2) cancel = true;
    return cancel.load();
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(rec.finished, (std::vector<size_t>{0}));
}

TEST(ProcessExecutor, MissingChildBinaryFailsEveryPointWithoutLooping) {
  ProcessExecutorOptions options;
  options.child_argv = {"/nonexistent/warpwatch-worker", "exec"};
  ProcessExecutor executor(options);
  ExecutionRequest request;
  request.points = {P("ok"), P("ok")};
  auto r = executor.Execute(request, {});
  ASSERT_TRUE(r.ok());
  for (const auto& m : r->measurements) {
    EXPECT_EQ(m.status(), v1::POINT_STATUS_FAILED);
    EXPECT_NE(m.error().find("exit code 127"), std::string::npos) << m.error();
  }
}

// A request larger than a pipe's 64 KiB buffer, sent to a child that stalls before reading: the
// parent must not block in write(2) outside the watchdog. The stalled child is killed as making no
// progress (its point fails) and the rest run in a fresh child. Bounded: should Execute block, the
// test kills the stalled child itself (which unblocks the write) and fails.
TEST(ProcessExecutor, ChildStalledBeforeReadingABigRequestIsKilledByTheWatchdog) {
  const std::string marker =
      ::testing::TempDir() + "/stall_before_read_" + std::to_string(getpid());
  std::remove(marker.c_str());
  ProcessExecutorOptions options;
  options.child_argv = {FAKE_EXEC_CHILD_PATH, "--stall-once-before-read=" + marker};
  options.grace_seconds = 0.5;
  ProcessExecutor executor(options);
  ExecutionRequest request;
  for (int i = 0; i < 3; ++i) request.points.push_back(P("ok"));
  request.labels["padding"] = std::string(256 * 1024, 'x');  // 4 pipe buffers
  request.settings.set_point_timeout_seconds(1);
  ExecutionCallbacks cb;

  auto done = std::async(std::launch::async, [&] { return executor.Execute(request, cb); });
  if (done.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    ADD_FAILURE() << "Execute still blocked after 20 s: the request write is outside the watchdog";
    std::ifstream in(marker);
    pid_t stalled = 0;
    if (in >> stalled && stalled > 0) ::kill(stalled, SIGKILL);  // unblocks the parent's write
  }
  auto r = done.get();
  std::remove(marker.c_str());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->measurements.size(), 3u);
  EXPECT_EQ(r->measurements[0].status(), v1::POINT_STATUS_FAILED) << Describe(*r);
  EXPECT_NE(r->measurements[0].error().find("made no progress for 1.5 s"), std::string::npos)
      << Describe(*r);
  EXPECT_EQ(r->measurements[1].status(), v1::POINT_STATUS_OK) << Describe(*r);
  EXPECT_EQ(r->measurements[2].status(), v1::POINT_STATUS_OK) << Describe(*r);
}

}  // namespace
}  // namespace warpwatch::worker
