// File: tests/cli/cli_rpc_test.cc
// The built `warpwatch` binary against a real in-process server on a real PostgreSQL: output and
// exit codes of submit, jobs, job, cancel and watch, and of errors.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "tests/cli/cli_runner.h"
#include "tests/server/runtime/rpc_test_fixture.h"
#include "warpwatch/v1/worker.grpc.pb.h"

namespace warpwatch::testing {
namespace {

using namespace std::chrono_literals;
using Result = CliResult;

class CliRpcTest : public RpcTest {
 protected:
  // Runs `warpwatch --server <this server> <args>` (args are shell words; `env` is prepended).
  Result Cli(const std::string& args, const std::string& env = "") {
    return RunRaw(CliCommand(args, env));
  }
  std::string CliCommand(const std::string& args, const std::string& env = "") const {
    return env + " " + WARPWATCH_CLI_PATH + " --server " + Address() + " " + args;
  }

  // Times `line` appears in what a command started with RunCommandInto(base, ...) has printed.
  static int LinesWith(const std::string& base, const std::string& line) {
    const std::string out = ReadFileText(base + ".out");
    int n = 0;
    for (size_t at = out.find(line); at != std::string::npos; at = out.find(line, at + 1)) ++n;
    return n;
  }

  Result RunRaw(const std::string& command) { return RunCommand(dir_.path(), command); }

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
  const std::string token_file = dir_.Write("reader.token", "reader-token-0000001\n");
  Result denied = Cli("--token-file " + token_file + " submit --family reduce");
  EXPECT_EQ(denied.exit_code, 6);
  EXPECT_NE(denied.err.find("PERMISSION_DENIED"), std::string::npos) << denied.err;
  Result env = Cli("jobs", "WARPWATCH_TOKEN=reader-token-0000001");
  EXPECT_EQ(env.exit_code, 0) << env.err;
  Result env_file = Cli("jobs", "WARPWATCH_TOKEN_FILE=" + token_file);
  EXPECT_EQ(env_file.exit_code, 0) << env_file.err;
}

TEST_F(CliRpcTest, ATokenOnTheCommandLineIsRefusedBecausePsShowsIt) {
  server::ServerConfig config = TestConfig();
  config.tokens_file = dir_.Write("tokens", "reader-token-0000001 reader dash\n");
  StartServer(config);
  Result r = Cli("--token reader-token-0000001 jobs");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--token-file"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("ID"), std::string::npos) << r.out;  // no listing was printed
  Result missing = Cli("--token-file " + dir_.path() + "/no-such-file jobs");
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
}

TEST_F(CliRpcTest, ATokenIsNotSentInPlaintextToAnotherHost) {
  // 192.0.2.1 is TEST-NET-1: nothing answers; the CLI must refuse before it connects.
  Result r = RunRaw("WARPWATCH_TOKEN=reader-token-0000001 " + std::string(WARPWATCH_CLI_PATH) +
                    " --server 192.0.2.1:50051 jobs");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("plaintext"), std::string::npos) << r.err;
}

TEST_F(CliRpcTest, SubmitRetriedWithItsRequestIdCreatesOneJob) {
  StartServer();
  const int64_t first = SubmitId("--request-id ci-run-99");
  const int64_t retry = SubmitId("--request-id ci-run-99");
  EXPECT_GT(first, 0);
  EXPECT_EQ(retry, first);
  EXPECT_NE(SubmitId("--request-id ci-run-100"), first);
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

// The watch runs on its own thread; the job is cancelled once the watch has printed it queued
// (before that, the watch would see only CANCELLED). A wait that times out is a failure, and the
// cancel still follows, so the watch ends.
TEST_F(CliRpcTest, WatchPrintsPlainLinesUntilTheJobEnds) {
  StartServer();
  const int64_t id = SubmitId();
  const std::string queued = "job " + std::to_string(id) + " QUEUED 0/1 0%";
  const std::string base = dir_.path() + "/watch";
  Result watch;
  std::thread watcher([&, command = CliCommand("watch " + std::to_string(id))] {
    watch = RunCommandInto(base, command);
  });
  EXPECT_TRUE(WaitUntil([&] { return LinesWith(base, queued) >= 1; }, 30s))
      << ReadFileText(base + ".out") << ReadFileText(base + ".err");
  Result cancel = Cli("cancel " + std::to_string(id));
  watcher.join();
  ASSERT_EQ(cancel.exit_code, 0) << cancel.err;
  EXPECT_EQ(watch.exit_code, 7) << watch.err;  // ended, but not SUCCEEDED
  EXPECT_NE(watch.out.find(queued), std::string::npos) << watch.out;
  EXPECT_NE(watch.out.find("job " + std::to_string(id) + " CANCELLED"), std::string::npos)
      << watch.out;
  EXPECT_EQ(watch.out.find('\r'), std::string::npos);  // no progress bar when not a TTY
  EXPECT_NE(watch.err.find("CANCELLED"), std::string::npos) << watch.err;
}

// Each step waits for what the watch prints: the job queued from the first server, then queued
// again from the restarted one (the watch reconnected), and only then is the job cancelled.
TEST_F(CliRpcTest, WatchKeepsWatchingAcrossAServerRestart) {
  StartServer();
  const int port = runtime_->port();
  const int64_t id = SubmitId();
  const std::string queued = "job " + std::to_string(id) + " QUEUED 0/1 0%";
  const std::string base = dir_.path() + "/watch";
  Result watch;
  std::thread watcher([&, command = CliCommand("watch " + std::to_string(id))] {
    watch = RunCommandInto(base, command);
  });
  EXPECT_TRUE(WaitUntil([&] { return LinesWith(base, queued) >= 1; }, 30s))
      << ReadFileText(base + ".out") << ReadFileText(base + ".err");
  // The server shuts down (WatchJob ends UNAVAILABLE "watch again") and comes back.
  runtime_->Shutdown(std::chrono::milliseconds(2000));
  runtime_.reset();
  std::this_thread::sleep_for(500ms);  // down for a moment: the watch retries meanwhile
  server::ServerConfig config = TestConfig();
  config.listen = "127.0.0.1:" + std::to_string(port);
  StartServer(config);
  EXPECT_TRUE(WaitUntil([&] { return LinesWith(base, queued) >= 2; }, 60s))
      << "the watch did not follow the restarted server: " << ReadFileText(base + ".out")
      << ReadFileText(base + ".err");
  Result cancel = Cli("cancel " + std::to_string(id));
  watcher.join();
  ASSERT_EQ(cancel.exit_code, 0) << cancel.err;
  EXPECT_EQ(watch.exit_code, 7) << watch.err;  // followed the job to its end: CANCELLED
  EXPECT_NE(watch.out.find("job " + std::to_string(id) + " CANCELLED"), std::string::npos)
      << watch.out << watch.err;
  EXPECT_NE(watch.err.find("watching again"), std::string::npos) << watch.err;
}

TEST_F(CliRpcTest, EscapeSequencesInWorkerTextArePrintedInert) {
  StartServer();
  const int64_t id = SubmitId();
  auto workers = v1::WorkerService::NewStub(Channel());
  v1::RegisterRequest registration;
  registration.set_hostname("node-1");
  registration.add_devices()->set_uuid("GPU-1");
  v1::RegisterResponse registered;
  ASSERT_TRUE(workers->Register(Context().get(), registration, &registered).ok());
  v1::AcquireJobRequest acquire;
  acquire.set_worker_id(registered.worker_id());
  acquire.set_device_uuid("GPU-1");
  v1::AcquireJobResponse lease;
  ASSERT_TRUE(workers->AcquireJob(Context().get(), acquire, &lease).ok());
  ASSERT_EQ(lease.job().id(), id);
  // A worker (or whoever holds a worker token) sends text that would retitle the window, clear
  // the screen and recolour what follows.
  v1::ReportProgressRequest progress;
  progress.set_worker_id(registered.worker_id());
  progress.set_job_id(id);
  progress.set_run_id(lease.run_id());
  progress.set_points_done(0);
  progress.set_current_case("reduce/x\x1b]0;pwned\x07\x1b[2Jcase\r\nforged");
  v1::ReportProgressResponse reported;
  ASSERT_TRUE(workers->ReportProgress(Context().get(), progress, &reported).ok());
  Result detail = Cli("job " + std::to_string(id));
  EXPECT_EQ(detail.exit_code, 0) << detail.err;
  EXPECT_EQ(detail.out.find('\x1b'), std::string::npos) << detail.out;
  EXPECT_NE(detail.out.find("reduce/xcase  forged"), std::string::npos) << detail.out;
  v1::FinishJobRequest finish;
  finish.set_worker_id(registered.worker_id());
  finish.set_job_id(id);
  finish.set_run_id(lease.run_id());
  finish.set_outcome(v1::JOB_OUTCOME_FAILED);
  finish.set_error("boom\x1b[31m red \x1b[0m");
  v1::Job finished;
  ASSERT_TRUE(workers->FinishJob(Context().get(), finish, &finished).ok());
  Result watch = Cli("watch " + std::to_string(id));
  EXPECT_EQ(watch.exit_code, 7);
  EXPECT_EQ(watch.err.find('\x1b'), std::string::npos) << watch.err;
  EXPECT_NE(watch.err.find("boom red"), std::string::npos) << watch.err;
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
