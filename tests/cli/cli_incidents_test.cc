// File: tests/cli/cli_incidents_test.cc
// The built `warpwatch` binary's incident verbs (incidents, incident N [--set], explain FINDING,
// --json) against a real in-process server on a real PostgreSQL, with reader and submitter tokens.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "server/incidents/incident_sweep.h"
#include "server/store/pg_incident_store.h"
#include "tests/cli/cli_runner.h"
#include "tests/server/service/result_rpc_test_util.h"

namespace warpwatch::testing {
namespace {

class CliIncidentsTest : public ResultRpcTest {
 protected:
  void SetUp() override {
    ResultRpcTest::SetUp();
    if (HasFatalFailure()) return;
    const int64_t run = MakeRun({ResultPoint("tree", 1e-3), ResultPoint("warp", 1e-3)});
    ASSERT_GT(run, 0);
    finding_ = InsertRegression(run, "OPEN", "tree");
    InsertRegression(run, "OPEN", "warp");
    server::PgStoreOptions options;
    options.url = url_;
    StatusOr<std::unique_ptr<server::incidents::IncidentStore>> store =
        server::OpenPgIncidentStore(options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    // The server's own sweep may hold the sweep's lock: sweep until both rows are grouped.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (Sql("SELECT count(*) FROM regression WHERE incident_id IS NOT NULL AND run_id = $1",
               run) != "2") {
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the findings were never grouped";
      ASSERT_TRUE(server::incidents::SweepIncidents(**store).ok());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    incident_ = Sql("SELECT incident_id FROM regression WHERE id = $1", finding_);
  }

  CliResult Cli(const std::string& args, const std::string& token = kReaderToken) {
    return RunCommand(dir_.path(), "WARPWATCH_TOKEN=" + token + " " + WARPWATCH_CLI_PATH +
                                       " --server " + Address() + " " + args);
  }

  int64_t finding_ = 0;
  std::string incident_;
};

TEST_F(CliIncidentsTest, IncidentsListsOneIncidentForTheRunsTwoFindings) {
  CliResult r = Cli("incidents");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("ID  STATE", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("SLOWDOWN"), std::string::npos) << r.out;
  CliResult json = Cli("--json incidents");
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"causeClass\""), std::string::npos) << json.out;
}

TEST_F(CliIncidentsTest, IncidentShowsItsCasesByGpuItsExplanationAndHistory) {
  CliResult r = Cli("incident " + incident_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("incident " + incident_ + ": OPEN"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reduce/tree?n=1024"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reduce/warp?n=1024"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Likely causes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("History:"), std::string::npos) << r.out;
  CliResult missing = Cli("incident 987654");
  EXPECT_EQ(missing.exit_code, 3) << missing.out;  // NOT_FOUND
}

TEST_F(CliIncidentsTest, AReaderCannotTriageAnIncidentASubmitterCan) {
  CliResult denied = Cli("incident " + incident_ + " --set acknowledged");
  EXPECT_EQ(denied.exit_code, 6) << denied.out;  // PERMISSION_DENIED
  CliResult acked =
      Cli("incident " + incident_ + " --set acknowledged --note mine", kSubmitterToken);
  EXPECT_EQ(acked.exit_code, 0) << acked.err;
  EXPECT_NE(acked.out.find("ACKNOWLEDGED"), std::string::npos) << acked.out;
  EXPECT_NE(acked.out.find("ci"), std::string::npos) << acked.out;
  CliResult again = Cli("incident " + incident_ + " --set acknowledged", kSubmitterToken);
  EXPECT_EQ(again.exit_code, 4);  // FAILED_PRECONDITION
  EXPECT_NE(again.err.find("ACKNOWLEDGED -> ACKNOWLEDGED"), std::string::npos) << again.err;
}

TEST_F(CliIncidentsTest, ExplainShowsOneFindingsExplanation) {
  CliResult r = Cli("explain " + std::to_string(finding_));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("finding " + std::to_string(finding_)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Counters: "), std::string::npos) << r.out;
  CliResult json = Cli("--json explain " + std::to_string(finding_));
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"explanation\""), std::string::npos) << json.out;
}

}  // namespace
}  // namespace warpwatch::testing
