// File: tests/cli/cli_rpc_test.cc
// The built `warpwatch` binary against a real in-process server on a real PostgreSQL: output and
// exit codes of submit, jobs, job, cancel and watch, and of errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

using namespace std::chrono_literals;

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class CliRpcTest : public RpcTest {
 protected:
  // Runs `warpwatch --server <this server> <args>` (args are shell words; `env` is prepended).
  Result Cli(const std::string& args, const std::string& env = "") {
    return RunRaw(env + " " + WARPWATCH_CLI_PATH + " --server " + Address() + " " + args);
  }

  Result RunRaw(const std::string& command) {
    static int counter = 0;
    const std::string base = dir_.path() + "/run" + std::to_string(++counter);
    const std::string full = "env -u WARPWATCH_SERVER -u WARPWATCH_TOKEN " + command + " >" + base +
                             ".out 2>" + base + ".err </dev/null";
    const int status = std::system(full.c_str());
    Result result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = ReadAll(base + ".out");
    result.err = ReadAll(base + ".err");
    return result;
  }

  // Submits through the CLI with --json and returns the job id.
  int64_t SubmitId(const std::string& extra = "") {
    Result r = Cli("--json submit --family reduce --variant warp_shuffle " + extra);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const size_t at = r.out.find("\"id\": \"");
    if (at == std::string::npos) {
      ADD_FAILURE() << "no id in " << r.out;
      return 0;
    }
    return std::stoll(r.out.substr(at + 7));
  }

  TempDir dir_;
};

TEST_F(CliRpcTest, SubmitPrintsTheNewJobAndExitsZero) {
  StartServer();
  Result r =
      Cli("submit --family reduce --variant warp_shuffle --axis reduce:n=1024,2048 "
          "--label git_sha=abc123 --priority 3 --max-noise 1%");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("submitted job 1: 2 points, QUEUED"), std::string::npos) << r.out;
}

TEST_F(CliRpcTest, SubmitJsonUsesTheProtobufMapping) {
  StartServer();
  Result r = Cli("--json submit --family reduce --variant warp_shuffle --label build=7");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"id\": \"1\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"state\": \"JOB_STATE_QUEUED\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"build\": \"7\""), std::string::npos) << r.out;
}

TEST_F(CliRpcTest, JobsListsJobsInATableAndFiltersByState) {
  StartServer();
  const int64_t first = SubmitId();
  const int64_t second = SubmitId();
  ASSERT_EQ(Cli("cancel " + std::to_string(second)).exit_code, 0);

  Result all = Cli("jobs");
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(all.out.rfind("ID  STATE", 0), 0u) << all.out;
  EXPECT_NE(all.out.find("\n" + std::to_string(first) + "   QUEUED"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("\n" + std::to_string(second) + "   CANCELLED"), std::string::npos)
      << all.out;

  Result cancelled = Cli("jobs --state cancelled");
  EXPECT_EQ(cancelled.exit_code, 0);
  EXPECT_NE(cancelled.out.find("CANCELLED"), std::string::npos);
  EXPECT_EQ(cancelled.out.find("QUEUED"), std::string::npos) << cancelled.out;

  Result limited = Cli("jobs --limit 1");
  EXPECT_EQ(std::count(limited.out.begin(), limited.out.end(), '\n'), 2) << limited.out;
}

TEST_F(CliRpcTest, JobShowsOneJobInDetail) {
  StartServer();
  const int64_t id = SubmitId("--label git_sha=abc123");
  Result r = Cli("job " + std::to_string(id));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("state:        QUEUED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("families:     reduce"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("labels:       git_sha=abc123"), std::string::npos) << r.out;
}

TEST_F(CliRpcTest, CancelEndsAQueuedJobAndRefusesAFinishedOne) {
  StartServer();
  const int64_t id = SubmitId();
  Result r = Cli("cancel " + std::to_string(id) + " --reason 'wrong build'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("job " + std::to_string(id) + " CANCELLED"), std::string::npos) << r.out;
  Result again = Cli("cancel " + std::to_string(id));
  EXPECT_EQ(again.exit_code, 4);
  EXPECT_NE(again.err.find("FAILED_PRECONDITION"), std::string::npos) << again.err;
}

TEST_F(CliRpcTest, AnUnknownJobExitsThreeWithNotFound) {
  StartServer();
  Result r = Cli("job 999");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("NOT_FOUND"), std::string::npos) << r.err;
}

TEST_F(CliRpcTest, AnUnknownFamilyExitsFourWithTheServersMessage) {
  StartServer();
  Result r = Cli("submit --family no_such_family");
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.err.find("INVALID_ARGUMENT: spec.families[0]"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no_such_family"), std::string::npos) << r.err;
}

TEST_F(CliRpcTest, AServerThatIsDownExitsFive) {
  StartServer();
  const std::string address = Address();
  runtime_->Shutdown(0ms);
  Result r = RunRaw(std::string(WARPWATCH_CLI_PATH) + " --server " + address + " jobs");
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.err.find("UNAVAILABLE"), std::string::npos) << r.err;
}

TEST_F(CliRpcTest, AuthErrorsExitSixAndTheTokenComesFromTheEnvironment) {
  server::ServerConfig config = TestConfig();
  config.tokens_file = dir_.Write("tokens", "reader-token-0000001 reader dash\n");
  StartServer(config);
  Result none = Cli("jobs");
  EXPECT_EQ(none.exit_code, 6);
  EXPECT_NE(none.err.find("UNAUTHENTICATED"), std::string::npos) << none.err;
  Result denied = Cli("--token reader-token-0000001 submit --family reduce");
  EXPECT_EQ(denied.exit_code, 6);
  EXPECT_NE(denied.err.find("PERMISSION_DENIED"), std::string::npos) << denied.err;
  Result env = Cli("jobs", "WARPWATCH_TOKEN=reader-token-0000001");
  EXPECT_EQ(env.exit_code, 0) << env.err;
}

TEST_F(CliRpcTest, UsageErrorsExitTwo) {
  StartServer();
  EXPECT_EQ(Cli("").exit_code, 2);
  EXPECT_EQ(Cli("submit").exit_code, 2);  // --family is required
  EXPECT_EQ(Cli("frobnicate").exit_code, 2);
  EXPECT_EQ(Cli("jobs --limit 0").exit_code, 2);
}

TEST_F(CliRpcTest, HelpDocumentsTheExitCodes) {
  StartServer();
  Result r = Cli("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("5  unavailable"), std::string::npos) << r.out;
}

TEST_F(CliRpcTest, WatchPrintsPlainLinesUntilTheJobEnds) {
  StartServer();
  const int64_t id = SubmitId();
  Result watch;
  std::thread watcher([&] { watch = Cli("watch " + std::to_string(id)); });
  std::this_thread::sleep_for(1000ms);
  Result cancel = Cli("cancel " + std::to_string(id));
  watcher.join();
  ASSERT_EQ(cancel.exit_code, 0) << cancel.err;
  EXPECT_EQ(watch.exit_code, 7) << watch.err;  // ended, but not SUCCEEDED
  EXPECT_NE(watch.out.find("job " + std::to_string(id) + " QUEUED 0/1 0%"), std::string::npos)
      << watch.out;
  EXPECT_NE(watch.out.find("job " + std::to_string(id) + " CANCELLED"), std::string::npos)
      << watch.out;
  EXPECT_EQ(watch.out.find('\r'), std::string::npos);  // no progress bar when not a TTY
  EXPECT_NE(watch.err.find("CANCELLED"), std::string::npos) << watch.err;
}

TEST_F(CliRpcTest, WatchJsonPrintsOneEventPerLine) {
  StartServer();
  const int64_t id = SubmitId();
  ASSERT_EQ(Cli("cancel " + std::to_string(id)).exit_code, 0);
  Result r = Cli("--json watch " + std::to_string(id));
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("\"state\":\"JOB_STATE_CANCELLED\""), std::string::npos) << r.out;
}

}  // namespace
}  // namespace warpwatch::testing
