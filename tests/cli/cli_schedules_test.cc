// File: tests/cli/cli_schedules_test.cc
// The built `warpwatch` binary's schedule verbs (schedules, schedule create|update|delete|
// trigger|runs, night) against a real in-process server on a real PostgreSQL, with reader and
// submitter tokens.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/cli_runner.h"
#include "tests/server/service/result_rpc_test_util.h"

namespace warpwatch::testing {
namespace {

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class CliSchedulesTest : public ResultRpcTest {
 protected:
  // Runs `warpwatch --server <this server> <args>` with WARPWATCH_TOKEN=`token`.
  CliResult Cli(const std::string& args, const std::string& token = kSubmitterToken) {
    return RunCommand(dir_.path(), "WARPWATCH_TOKEN=" + token + " " + WARPWATCH_CLI_PATH +
                                       " --server " + Address() + " " + args);
  }

  // `schedule create nightly` fanning out to H100s; the cron fires only on February 29.
  void CreateNightly() {
    CliResult r = Cli(
        "schedule create nightly --cron '0 2 29 2 *' --time-zone Europe/Berlin --family reduce "
        "--variant warp_shuffle --gpu-model '*H100*' --missed run-once");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "created schedule nightly")) << r.out;
  }
};

TEST_F(CliSchedulesTest, CreateListTriggerAndNightShowOneRowPerMatchingGpu) {
  worker_ = Register("node-1", {MakeGpu("GPU-1", kModel, 0), MakeGpu("GPU-2", kModel, 1),
                                MakeGpu("GPU-3", "NVIDIA A100-SXM4-40GB", 2)})
                .worker_id();
  CreateNightly();
  CliResult list = Cli("schedules", kReaderToken);
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(list.out.rfind("NAME", 0), 0u) << list.out;
  EXPECT_TRUE(Has(list.out, "nightly")) << list.out;
  EXPECT_TRUE(Has(list.out, "model *H100*")) << list.out;
  EXPECT_TRUE(Has(list.out, "run-once")) << list.out;
  CliResult json = Cli("schedules --json", kReaderToken);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_TRUE(Has(json.out, "\"name\": \"nightly\"")) << json.out;

  CliResult trigger = Cli("schedule trigger nightly");
  ASSERT_EQ(trigger.exit_code, 0) << trigger.err;
  EXPECT_TRUE(Has(trigger.out, "2 GPUs")) << trigger.out;
  EXPECT_TRUE(Has(trigger.out, "GPU-1")) << trigger.out;
  EXPECT_TRUE(Has(trigger.out, "GPU-2")) << trigger.out;
  EXPECT_FALSE(Has(trigger.out, "GPU-3")) << trigger.out;

  // GPU-1 finishes its job; GPU-2 fails its.
  for (const char* gpu : {"GPU-1", "GPU-2"}) {
    v1::AcquireJobResponse lease = Acquire(worker_, gpu, 5);
    ASSERT_TRUE(lease.has_job()) << gpu;
    v1::Job finished;
    const bool ok = std::string(gpu) == "GPU-1";
    ASSERT_TRUE(Finish(worker_, lease.job().id(), lease.run_id(),
                       ok ? v1::JOB_OUTCOME_SUCCEEDED : v1::JOB_OUTCOME_FAILED, &finished,
                       ok ? "" : "sticky CUDA error")
                    .ok());
  }
  for (const std::string args : {"night nightly", "night"}) {
    CliResult night = Cli(args, kReaderToken);
    ASSERT_EQ(night.exit_code, 0) << args << ": " << night.err;
    EXPECT_TRUE(Has(night.out, "schedule nightly")) << night.out;
    EXPECT_TRUE(Has(night.out, "1 done, 1 failed")) << night.out;
    EXPECT_TRUE(Has(night.out, "HOST")) << night.out;
    EXPECT_TRUE(Has(night.out, "node-1")) << night.out;
    EXPECT_TRUE(Has(night.out, "done")) << night.out;
    EXPECT_TRUE(Has(night.out, "failed")) << night.out;
  }
  CliResult runs = Cli("schedule runs nightly", kReaderToken);
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_TRUE(Has(runs.out, "manual")) << runs.out;
}

TEST_F(CliSchedulesTest, NightOfADateWithoutARunIsNotFound) {
  CreateNightly();
  CliResult night = Cli("night nightly --date 1999-01-01", kReaderToken);
  EXPECT_EQ(night.exit_code, 3) << night.out;
  EXPECT_TRUE(Has(night.err, "NOT_FOUND")) << night.err;
  CliResult bad = Cli("night nightly --date yesterday", kReaderToken);
  EXPECT_EQ(bad.exit_code, 4) << bad.err;
}

TEST_F(CliSchedulesTest, AReaderCannotCreateASchedule) {
  CliResult r = Cli("schedule create nightly --cron '0 2 * * *' --family reduce", kReaderToken);
  EXPECT_EQ(r.exit_code, 6) << r.out;
  EXPECT_TRUE(Has(r.err, "PERMISSION_DENIED")) << r.err;
}

TEST_F(CliSchedulesTest, ABadCronIsExitFourNamingTheField) {
  CliResult r = Cli("schedule create nightly --cron '61 2 * * *' --family reduce");
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_TRUE(Has(r.err, "schedule.cron")) << r.err;
}

TEST_F(CliSchedulesTest, UpdateDisablesAndDeleteRemovesASchedule) {
  CreateNightly();
  CliResult update = Cli("schedule update nightly --disable --allow-overlap true");
  ASSERT_EQ(update.exit_code, 0) << update.err;
  EXPECT_TRUE(Has(update.out, "updated schedule nightly")) << update.out;
  CliResult json = Cli("schedules --json", kReaderToken);
  EXPECT_TRUE(Has(json.out, "\"enabled\": false")) << json.out;
  EXPECT_TRUE(Has(json.out, "\"allow_overlap\": true") || Has(json.out, "\"allowOverlap\": true"))
      << json.out;
  ASSERT_EQ(Cli("schedule delete nightly").exit_code, 0);
  CliResult list = Cli("schedules", kReaderToken);
  EXPECT_TRUE(Has(list.out, "no schedules")) << list.out;
  EXPECT_EQ(Cli("schedule delete nightly").exit_code, 3);
}

}  // namespace
}  // namespace warpwatch::testing
