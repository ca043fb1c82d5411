// File: tests/cli/cli_results_test.cc
// The built `warpwatch` binary's history and triage verbs (runs, results, series, compare,
// regressions, ack/dismiss/fixed, upload, baseline pin|unpin|list) against a real in-process
// server on a real PostgreSQL, with reader and submitter tokens.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/cli_runner.h"
#include "tests/server/service/result_rpc_test_util.h"

namespace warpwatch::testing {
namespace {

class CliResultsTest : public ResultRpcTest {
 protected:
  // Runs `warpwatch --server <this server> <args>` with WARPWATCH_TOKEN=`token`.
  CliResult Cli(const std::string& args, const std::string& token = kReaderToken) {
    return RunCommand(dir_.path(), "WARPWATCH_TOKEN=" + token + " " + WARPWATCH_CLI_PATH +
                                       " --server " + Address() + " " + args);
  }
};

TEST_F(CliResultsTest, RunsAndResultsShowWhatARunMeasured) {
  const int64_t run = MakeRun({ResultPoint("tree", 1.5e-3), ResultPoint("warp_shuffle", 2e-5)});
  CliResult runs = Cli("runs");
  EXPECT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_EQ(runs.out.rfind("ID  JOB", 0), 0u) << runs.out;
  EXPECT_NE(runs.out.find(kModel), std::string::npos) << runs.out;
  EXPECT_NE(runs.out.find("GPU-1"), std::string::npos) << runs.out;

  CliResult results = Cli("results " + std::to_string(run));
  EXPECT_EQ(results.exit_code, 0) << results.err;
  EXPECT_NE(results.out.find("reduce/tree?n=1024"), std::string::npos) << results.out;
  EXPECT_NE(results.out.find("1.50 ms"), std::string::npos) << results.out;
  EXPECT_NE(results.out.find("20.0 us"), std::string::npos) << results.out;
  EXPECT_NE(results.out.find("50%/45%"), std::string::npos) << results.out;

  CliResult filtered = Cli("results " + std::to_string(run) + " --variant 'warp_*'");
  EXPECT_EQ(filtered.exit_code, 0) << filtered.err;
  EXPECT_EQ(filtered.out.find("reduce/tree"), std::string::npos) << filtered.out;

  CliResult json = Cli("--json results " + std::to_string(run) + " --samples");
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"samplesSeconds\""), std::string::npos) << json.out;

  CliResult missing = Cli("results 987654");
  EXPECT_EQ(missing.exit_code, 3) << missing.out;  // NOT_FOUND
  EXPECT_NE(missing.err.find("run 987654"), std::string::npos) << missing.err;
}

TEST_F(CliResultsTest, SeriesDrawsTheMediansAsASparkline) {
  MakeRun({ResultPoint("tree", 1e-3)});
  MakeRun({ResultPoint("tree", 2e-3)});
  MakeRun({ResultPoint("tree", 3e-3)});
  CliResult r = Cli("series 'reduce/tree?n=1024' --model '" + std::string(kModel) + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("median: ▁▅█"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 runs"), std::string::npos) << r.out;
  CliResult by_device = Cli("series 'reduce/tree?n=1024' --device GPU-1");
  EXPECT_EQ(by_device.exit_code, 0) << by_device.err;
  EXPECT_NE(by_device.out.find("on GPU-1"), std::string::npos) << by_device.out;

  CliResult bad = Cli("series 'reduce/tree?n=x' --model M");
  EXPECT_EQ(bad.exit_code, 4) << bad.out;  // INVALID_ARGUMENT
  EXPECT_NE(bad.err.find("case_canonical"), std::string::npos) << bad.err;
  CliResult neither = Cli("series 'reduce/tree?n=1024'");
  EXPECT_EQ(neither.exit_code, 4);
  EXPECT_NE(neither.err.find("--model"), std::string::npos) << neither.err;
}

TEST_F(CliResultsTest, CompareShowsVerdictsAndCasesOfOneRunOnly) {
  const int64_t a = MakeRun({ResultPoint("tree", 1e-3), ResultPoint("two_pass", 1e-3)});
  const int64_t b = MakeRun({ResultPoint("tree", 1.3e-3)});
  CliResult r = Cli("compare " + std::to_string(a) + " " + std::to_string(b));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("+30.0%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SLOWER"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("only in base: reduce/two_pass?n=1024"), std::string::npos) << r.out;
  CliResult json = Cli("--json compare " + std::to_string(a) + " " + std::to_string(b));
  EXPECT_NE(json.out.find("\"COMPARISON_VERDICT_SLOWER\""), std::string::npos) << json.out;
}

TEST_F(CliResultsTest, AReaderCannotTriageASubmitterCanAndIsRecorded) {
  const int64_t run = MakeRun({ResultPoint("tree", 1e-3)});
  const std::string id = std::to_string(InsertRegression(run, "OPEN"));
  CliResult listed = Cli("regressions --state open");
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("reduce/tree?n=1024"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("+10.0%"), std::string::npos) << listed.out;

  CliResult denied = Cli("ack " + id + " --note mine", kReaderToken);
  EXPECT_EQ(denied.exit_code, 6) << denied.out;  // PERMISSION_DENIED
  CliResult acked = Cli("ack " + id + " --note 'on it'", kSubmitterToken);
  EXPECT_EQ(acked.exit_code, 0) << acked.err;
  EXPECT_NE(acked.out.find("regression " + id + ": ACKNOWLEDGED by ci (on it)"),
            std::string::npos)
      << acked.out;
  EXPECT_EQ(Cli("fixed " + id, kSubmitterToken).exit_code, 0);
  CliResult again = Cli("dismiss " + id, kSubmitterToken);
  EXPECT_EQ(again.exit_code, 4) << again.out;  // FAILED_PRECONDITION
  EXPECT_NE(again.err.find("FIXED -> DISMISSED"), std::string::npos) << again.err;
  CliResult fixed = Cli("regressions --state fixed");
  EXPECT_NE(fixed.out.find("FIXED"), std::string::npos) << fixed.out;
  EXPECT_EQ(Cli("regressions --state bogus").exit_code, 4);
}

TEST_F(CliResultsTest, BaselinePinListUnpinWithReaderAndSubmitterTokens) {
  const std::string run = std::to_string(MakeRun({ResultPoint("tree", 1e-3)}));
  const std::string series = std::string("'reduce/tree?n=1024@") + kModel + "'";
  CliResult denied = Cli("baseline pin " + run, kReaderToken);
  EXPECT_EQ(denied.exit_code, 6) << denied.out;  // PERMISSION_DENIED
  CliResult pinned =
      Cli("baseline pin " + run + " --series " + series + " --note 'release 1.0'", kSubmitterToken);
  EXPECT_EQ(pinned.exit_code, 0) << pinned.err;
  EXPECT_EQ(pinned.out.rfind("pinned baseline ", 0), 0u) << pinned.out;
  EXPECT_NE(pinned.out.find("runs " + run + " for series reduce/tree?n=1024@"), std::string::npos)
      << pinned.out;
  EXPECT_NE(pinned.out.find("(by ci)"), std::string::npos) << pinned.out;
  const std::string id = pinned.out.substr(16, pinned.out.find(':') - 16);

  CliResult listed = Cli("baseline list --series " + series);
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_EQ(listed.out.rfind("ID  RUNS", 0), 0u) << listed.out;
  EXPECT_NE(listed.out.find("release 1.0"), std::string::npos) << listed.out;
  CliResult json = Cli("--json baseline list");
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"pinnedBy\": \"ci\""), std::string::npos) << json.out;

  CliResult missing = Cli("baseline pin 987654", kSubmitterToken);
  EXPECT_EQ(missing.exit_code, 3) << missing.out;  // NOT_FOUND
  EXPECT_NE(missing.err.find("run 987654"), std::string::npos) << missing.err;

  EXPECT_EQ(Cli("baseline unpin " + id, kReaderToken).exit_code, 6);
  CliResult unpinned = Cli("baseline unpin " + id, kSubmitterToken);
  EXPECT_EQ(unpinned.exit_code, 0) << unpinned.err;
  EXPECT_EQ(unpinned.out.rfind("unpinned baseline " + id, 0), 0u) << unpinned.out;
  EXPECT_EQ(Cli("baseline list").out, "no baseline pins\n");
}

TEST_F(CliResultsTest, UploadStoresAFileOnceAndRefusesWhatIsNotARun) {
  const std::string fixture = std::string(WARPWATCH_FIXTURES_DIR) + "/h100_nightly.json";
  CliResult first = Cli("upload " + fixture, kSubmitterToken);
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("stored"), std::string::npos) << first.out;
  CliResult second = Cli("upload " + fixture, kSubmitterToken);
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.out.find("uploaded before; nothing stored"), std::string::npos) << second.out;
  CliResult listed = Cli("runs");
  EXPECT_NE(listed.out.find("upload"), std::string::npos) << listed.out;

  const std::string not_a_run = dir_.Write("job.json", "{\"id\": \"1\"}");
  CliResult refused = Cli("upload " + not_a_run, kSubmitterToken);
  EXPECT_EQ(refused.exit_code, 4) << refused.out;
  EXPECT_NE(refused.err.find("not a RunResult"), std::string::npos) << refused.err;
  EXPECT_EQ(Cli("upload /nonexistent/run.json", kSubmitterToken).exit_code, 3);
}

TEST_F(CliResultsTest, UploadFleetHistoryIsAnAdminsDecision) {
  const std::string fixture = std::string(WARPWATCH_FIXTURES_DIR) + "/h100_nightly.json";
  CliResult refused = Cli("upload --fleet-history " + fixture, kSubmitterToken);
  EXPECT_EQ(refused.exit_code, 6) << refused.out;
  EXPECT_NE(refused.err.find("fleet_history"), std::string::npos) << refused.err;
  CliResult own = Cli("upload " + fixture, kSubmitterToken);
  EXPECT_EQ(own.exit_code, 0) << own.err;
  EXPECT_NE(own.out.find("in ci's own history"), std::string::npos) << own.out;
  CliResult fleet = Cli("upload --fleet-history " + fixture, kAdminToken);
  EXPECT_EQ(fleet.exit_code, 0) << fleet.err;
  EXPECT_NE(fleet.out.find("in the fleet's history"), std::string::npos) << fleet.out;
}

}  // namespace
}  // namespace warpwatch::testing
