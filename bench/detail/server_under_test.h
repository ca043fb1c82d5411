// File: bench/detail/server_under_test.h
// The server the load benchmarks drive: a throwaway PostgreSQL and the real warpwatch-server
// process on loopback ports, with a generated tokens file (a submitter, an admin and one token
// per simulated worker, each its own principal), plus what the process holds while it runs
// (CPU time, threads, resident memory) and the database connections it has open.
#ifndef WARPWATCH_BENCH_DETAIL_SERVER_UNDER_TEST_H_
#define WARPWATCH_BENCH_DETAIL_SERVER_UNDER_TEST_H_

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include <memory>
#include <pqxx/connection>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "tests/e2e/child_process.h"
#include "tests/support/postgres_server.h"

namespace warpwatch::bench {

struct ProcessUse {
  double cpu_seconds = 0;  // user + system since the process started
  int threads = 0;
  double rss_mib = 0;
};

class ServerUnderTest {
 public:
  // Starts PostgreSQL and `server_path` with `worker_tokens` worker tokens; `extra_flags` are
  // appended to the server's command line. Returns once the server answers RPCs.
  static StatusOr<std::unique_ptr<ServerUnderTest>> Start(
      const std::string& server_path, int worker_tokens,
      const std::vector<std::string>& extra_flags);
  ~ServerUnderTest();

  // A channel of its own (its own TCP connection, not shared with other channels), as a worker
  // or a user process would have.
  std::shared_ptr<grpc::Channel> NewChannel() const;
  // Sets the bearer token on a call.
  static void Authorize(grpc::ClientContext& context, const std::string& token);

  const std::string& submitter_token() const { return submitter_token_; }
  const std::string& worker_token(int i) const { return worker_tokens_[i]; }
  const std::string& database_url() const { return database_url_; }
  // The server's /metrics port (Prometheus text from testing::FetchMetrics).
  int metrics_port() const { return metrics_port_; }
  const std::string& log_path() const { return server_->log_path(); }

  // The server process's use now (from /proc).
  StatusOr<ProcessUse> Use() const;
  // Connections the server holds to its database now (pg_stat_activity).
  StatusOr<int> DatabaseConnections();
  // One bare round trip to the database (SELECT 1 on a connection of the benchmark's own):
  // the reference for what a query costs on this host.
  StatusOr<double> DatabaseRoundTripMs();

 private:
  int metrics_port_ = 0;
  ServerUnderTest() = default;

  std::string temp_dir_;
  std::unique_ptr<testing::PostgresServer> postgres_;
  std::string database_url_;
  std::string address_;
  std::unique_ptr<e2e::ChildProcess> server_;
  std::string submitter_token_;
  std::vector<std::string> worker_tokens_;
  std::unique_ptr<pqxx::connection> probe_;  // DatabaseRoundTripMs and DatabaseConnections
};

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_SERVER_UNDER_TEST_H_
