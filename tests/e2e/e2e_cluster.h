// File: tests/e2e/e2e_cluster.h
// One end-to-end setup: a throwaway PostgreSQL, the real warpwatch-server on a free port, and any
// number of replay workers, with a JobService client and SQL reads of what got stored.
#ifndef WARPWATCH_TESTS_E2E_E2E_CLUSTER_H_
#define WARPWATCH_TESTS_E2E_E2E_CLUSTER_H_

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "tests/e2e/child_process.h"
#include "tests/e2e/replay_fixture.h"
#include "tests/support/postgres_server.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::e2e {

struct ClusterOptions {
  int lease_seconds = 10;
  std::vector<std::string> server_args;  // appended to every server's command line
};

struct WorkerOptions {
  std::string uuid;                 // GPU UUID the replay worker registers
  double grace_seconds = 30;
  double max_point_seconds = 0.1;   // replay pace
  std::vector<std::string> args;    // more flags, e.g. --replay-slowdown=1.05 (replay_change.h)
};

struct StoredRun {
  int64_t id = 0;
  std::string state;
  std::map<std::string, int> cases;        // canonical -> rows (the schema keeps it at 1)
  std::map<std::string, std::string> skipped;  // canonical -> error, for SKIPPED rows
};

// Not thread-safe: one per test, driven from the test's thread. The temp dir (logs) is removed at
// the end unless WARPWATCH_E2E_KEEP is set.
class E2eCluster {
 public:
  static StatusOr<std::unique_ptr<E2eCluster>> Create(ClusterOptions options);
  ~E2eCluster();

  Status StartServer();
  // SIGTERM, then waits for exit 0.
  Status StopServer();
  testing::PostgresServer& postgres() { return *postgres_; }
  const std::string& database_url() const { return database_url_; }
  // "127.0.0.1:<port>" of the server StartServer runs.
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  // The /metrics port of the server StartServer runs (0 before it).
  int metrics_port() const { return metrics_port_; }
  // Another warpwatch-server process on the same database with the same flags, on a free port
  // (written to *address), once it answers. Its log is part of Logs().
  StatusOr<std::unique_ptr<ChildProcess>> StartReplica(std::string* address);
  const ReplayFixture& fixture() const { return fixture_; }
  const std::string& temp_dir() const { return temp_dir_; }

  StatusOr<std::unique_ptr<ChildProcess>> StartWorker(const WorkerOptions& options);

  StatusOr<v1::Job> Submit(const v1::JobSpec& spec);
  StatusOr<v1::Job> GetJob(int64_t id);
  StatusOr<v1::Job> Cancel(int64_t id);
  // Polls GetJob until `done(job)` or the timeout (DEADLINE_EXCEEDED with the last state seen).
  StatusOr<v1::Job> WaitForJob(int64_t id, const std::function<bool(const v1::Job&)>& done,
                               std::chrono::milliseconds timeout);

  // Runs of the job, oldest first, with their stored measurements.
  StatusOr<std::vector<StoredRun>> Runs(int64_t job_id);

  // The spec that replays the whole recording (selector and labels cleared).
  v1::JobSpec RecordedSpec() const;
  // Points RecordedSpec() expands to.
  int64_t RecordedPoints() const;
  // The server's and the workers' log tails, for failure messages.
  std::string Logs() const;

 private:
  // One try of StartReplica with fresh ports.
  StatusOr<std::unique_ptr<ChildProcess>> StartReplicaOnce(std::string* address);

  E2eCluster() = default;

  ClusterOptions options_;
  std::string temp_dir_;
  std::unique_ptr<testing::PostgresServer> postgres_;
  std::string database_url_;
  int port_ = 0;
  int metrics_port_ = 0;
  std::unique_ptr<ChildProcess> server_;
  std::vector<std::string> worker_logs_;
  std::vector<std::string> replica_logs_;
  ReplayFixture fixture_;
  std::unique_ptr<v1::JobService::Stub> jobs_;
};

}  // namespace warpwatch::e2e

#endif  // WARPWATCH_TESTS_E2E_E2E_CLUSTER_H_
