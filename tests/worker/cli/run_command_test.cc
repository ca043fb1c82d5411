// Tests of `warpwatch-worker run` with a fake device count and a fake executor (no GPU).
#include "worker/cli/run_command.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "worker/cli/result_json.h"

namespace warpwatch::worker {
namespace {

// Reports every point OK except variants named in `fail`.
class ScriptedExecutor : public Executor {
 public:
  explicit ScriptedExecutor(std::string fail) : fail_(std::move(fail)) {}
  StatusOr<ExecutionResult> Execute(const ExecutionRequest& request,
                                    const ExecutionCallbacks& cb) override {
    requests++;
    ExecutionResult r;
    r.environment.mutable_device()->set_name("Fake GPU");
    if (cb.on_environment) cb.on_environment(r.environment);
    for (size_t i = 0; i < request.points.size(); ++i) {
      if (cb.on_point_started) cb.on_point_started(i, request.points[i]);
      v1::Measurement m;
      m.mutable_case_()->set_canonical(request.points[i].Canonical());
      m.mutable_case_()->set_variant(request.points[i].variant);
      bool failed = request.points[i].variant == fail_;
      m.set_status(failed ? v1::POINT_STATUS_FAILED : v1::POINT_STATUS_OK);
      if (failed) m.set_error("scripted failure");
      m.mutable_stats()->set_median(1e-3);
      if (cb.on_measurement) cb.on_measurement(i, m);
      r.measurements.push_back(m);
    }
    return r;
  }
  int requests = 0;

 private:
  std::string fail_;
};

RunEnvironmentHooks Hooks(Executor* executor, StatusOr<int> devices) {
  RunEnvironmentHooks h;
  h.device_count = [devices] { return devices; };
  h.executor = executor;
  return h;
}

TEST(RunCommand, NoGpuExitsTwoWithAClearMessage) {
  ScriptedExecutor executor("");
  RunOptions o;
  o.families = {"testing.fault"};
  std::ostringstream out, err;
  int rc = RunCommand(o, "cmd",
                      Hooks(&executor, UnavailableError("no CUDA device: cudaErrorNoDevice")),
                      out, err);
  EXPECT_EQ(rc, kRunExitNoGpu);
  EXPECT_NE(err.str().find("no CUDA device"), std::string::npos) << err.str();
  EXPECT_EQ(executor.requests, 0);
}

TEST(RunCommand, DeviceOutOfRangeExitsTwo) {
  ScriptedExecutor executor("");
  RunOptions o;
  o.families = {"testing.fault"};
  o.device = 3;
  std::ostringstream out, err;
  EXPECT_EQ(RunCommand(o, "cmd", Hooks(&executor, 1), out, err), kRunExitNoGpu);
}

TEST(RunCommand, UnknownFamilyIsAUsageError) {
  ScriptedExecutor executor("");
  RunOptions o;
  o.families = {"no.such.family"};
  std::ostringstream out, err;
  EXPECT_EQ(RunCommand(o, "cmd", Hooks(&executor, 1), out, err), kRunExitUsage);
  EXPECT_NE(err.str().find("no.such.family"), std::string::npos) << err.str();
}

TEST(RunCommand, RunsPointsPrintsTableAndWritesJson) {
  ScriptedExecutor executor("trap");
  RunOptions o;
  o.families = {"testing.fault"};
  o.variants = {"ok", "trap"};
  o.axes = {"n=1024,2048"};
  o.out = ::testing::TempDir() + "/run_command_test.json";
  std::ostringstream out, err;
  int rc = RunCommand(o, "warpwatch-worker run --family testing.fault", Hooks(&executor, 1), out,
                      err);
  EXPECT_EQ(rc, kRunExitPointsFailed) << err.str();
  EXPECT_NE(err.str().find("[4/4] testing.fault/trap?n=2048 FAILED: scripted failure"),
            std::string::npos)
      << err.str();
  EXPECT_NE(out.str().find("testing.fault/ok?n=1024"), std::string::npos) << out.str();
  std::ifstream in(o.out);
  std::stringstream json;
  json << in.rdbuf();
  auto result = RunResultFromJson(json.str());
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->command(), "warpwatch-worker run --family testing.fault");
  EXPECT_EQ(result->measurements_size(), 4);
  EXPECT_EQ(result->environment().device().name(), "Fake GPU");
  EXPECT_EQ(result->spec().families(0), "testing.fault");
  EXPECT_TRUE(result->has_started_at());
  std::remove(o.out.c_str());
}

TEST(RunCommand, AllPointsOkExitsZero) {
  ScriptedExecutor executor("");
  RunOptions o;
  o.families = {"testing.fault"};
  o.variants = {"ok"};
  std::ostringstream out, err;
  EXPECT_EQ(RunCommand(o, "cmd", Hooks(&executor, 1), out, err), kRunExitOk) << err.str();
}

TEST(RunCommand, BadTestContentionValuesAreAUsageErrorBeforeAnythingRuns) {
  ScriptedExecutor executor("");
  RunOptions o;
  o.families = {"testing.fault"};
  o.contention.gib = 1000;
  std::ostringstream out, err;
  EXPECT_EQ(RunCommand(o, "cmd", Hooks(&executor, 1), out, err), kRunExitUsage);
  EXPECT_NE(err.str().find("--test-contention-gib=1000"), std::string::npos) << err.str();
  EXPECT_EQ(executor.requests, 0);

  RunOptions duty_alone;
  duty_alone.families = {"testing.fault"};
  duty_alone.contention.duty = 0.5;
  std::ostringstream out2, err2;
  EXPECT_EQ(RunCommand(duty_alone, "cmd", Hooks(&executor, 1), out2, err2), kRunExitUsage);
  EXPECT_NE(err2.str().find("--test-contention-duty needs"), std::string::npos) << err2.str();
  EXPECT_EQ(executor.requests, 0);

  RunOptions engine_alone;
  engine_alone.families = {"testing.fault"};
  engine_alone.contention.engine = ContentionEngine::kCopy;
  std::ostringstream out3, err3;
  EXPECT_EQ(RunCommand(engine_alone, "cmd", Hooks(&executor, 1), out3, err3), kRunExitUsage);
  EXPECT_NE(err3.str().find("--test-contention-engine needs"), std::string::npos) << err3.str();
  EXPECT_EQ(executor.requests, 0);
}

// The range profiler would profile the contention copy as if it were the point's.
TEST(RunCommand, TestContentionRefusesCounters) {
  ScriptedExecutor executor("");
  RunOptions o;
  o.families = {"testing.fault"};
  o.counters = true;
  o.contention.gib = 1;
  std::ostringstream out, err;
  EXPECT_EQ(RunCommand(o, "cmd", Hooks(&executor, 1), out, err), kRunExitUsage);
  EXPECT_NE(err.str().find("--counters"), std::string::npos) << err.str();
  EXPECT_EQ(executor.requests, 0);
}

// Contention slows the same series: the run's spec (and so its measurement settings key) is the
// one a clean run writes, and the run says on stderr that it is slowed on purpose.
TEST(RunCommand, TestContentionKeepsTheSpecAndWarns) {
  auto spec_of = [](const RunOptions& o, std::string* err_text) {
    ScriptedExecutor executor("");
    std::ostringstream out, err;
    EXPECT_EQ(RunCommand(o, "cmd", Hooks(&executor, 1), out, err), kRunExitOk) << err.str();
    *err_text = err.str();
    std::ifstream in(o.out);
    std::stringstream json;
    json << in.rdbuf();
    auto result = RunResultFromJson(json.str());
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    std::remove(o.out.c_str());
    return result.ok() ? result->spec().SerializeAsString() : std::string();
  };
  RunOptions clean;
  clean.families = {"testing.fault"};
  clean.variants = {"ok"};
  clean.out = ::testing::TempDir() + "/run_command_contention_test.json";
  RunOptions slowed = clean;
  slowed.contention.gib = 1;
  slowed.contention.duty = 0.5;
  std::string clean_err, slowed_err;
  const std::string clean_spec = spec_of(clean, &clean_err);
  const std::string slowed_spec = spec_of(slowed, &slowed_err);
  EXPECT_FALSE(clean_spec.empty());
  EXPECT_EQ(clean_spec, slowed_spec);
  EXPECT_EQ(clean_err.find("TEST CONTENTION"), std::string::npos) << clean_err;
  EXPECT_NE(slowed_err.find("TEST CONTENTION"), std::string::npos) << slowed_err;
  EXPECT_NE(slowed_err.find("engine kernel"), std::string::npos) << slowed_err;

  RunOptions copied = slowed;
  copied.contention.engine = ContentionEngine::kCopy;
  std::string copied_err;
  EXPECT_EQ(spec_of(copied, &copied_err), clean_spec);
  EXPECT_NE(copied_err.find("engine copy"), std::string::npos) << copied_err;
}

}  // namespace
}  // namespace warpwatch::worker
