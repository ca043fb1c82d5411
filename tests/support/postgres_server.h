// File: tests/support/postgres_server.h
// A throwaway PostgreSQL 15 server for tests: its own temp dir, a free TCP port on 127.0.0.1,
// trust authentication, fsync off. Works as root (the server then runs as an unprivileged user).
#ifndef WARPWATCH_TESTS_SUPPORT_POSTGRES_SERVER_H_
#define WARPWATCH_TESTS_SUPPORT_POSTGRES_SERVER_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "tests/support/detail/process.h"

namespace warpwatch::testing {

// Directory of initdb, postgres (Debian's PostgreSQL 15).
inline constexpr const char* kPostgresBinDir = "/usr/lib/postgresql/15/bin";

// One server process. Not thread-safe: drive it from one thread (the one that created it; the
// server gets SIGQUIT when that thread exits, so a crashed test never leaves a server behind).
class PostgresServer {
 public:
  // Creates a cluster in a fresh temp dir (a copy of a cached initdb result, so the second server
  // on this machine starts in well under a second) and starts it. `settings` ("name=value") are
  // given to the server after the harness's own and override them (a benchmark's
  // shared_buffers, say).
  static StatusOr<std::unique_ptr<PostgresServer>> Create(std::vector<std::string> settings = {});
  // A hot standby of `primary` (which must be running): pg_basebackup -R of it into a fresh temp
  // dir, then started with streaming replication from it (hot_standby on, so it answers reads).
  // Everything `primary` holds now and commits later is replayed onto it. Drive it like any
  // server (Stop/Start; the test may pause replay with pg_wal_replay_pause()).
  static StatusOr<std::unique_ptr<PostgresServer>> CreateStandby(
      const PostgresServer& primary, std::vector<std::string> settings = {});
  // A server another process started and owns (tests/run.sh's shared server, see
  // shared_postgres_main.cc), listening on 127.0.0.1:`port` with the harness's settings. Answers
  // Url and CreateDatabase like any server; Start only checks that it answers, and Stop is
  // FAILED_PRECONDITION: a test that stops its server needs a server of its own.
  static StatusOr<std::unique_ptr<PostgresServer>> Attach(int port);

  // Stops the server (immediate shutdown) and removes the temp dir.
  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // Fast shutdown; returns when the process has exited. Connections then fail. No-op if stopped.
  Status Stop();
  // Starts again on the same data dir and port; returns once it accepts connections.
  // No-op if running.
  Status Start();
  bool running() const { return pid_ > 0 || attached_; }
  bool attached() const { return attached_; }

  int port() const { return port_; }
  // "postgresql://postgres@127.0.0.1:PORT/DATABASE"
  std::string Url(const std::string& database = "postgres") const;
  // CREATE DATABASE `name` (letters, digits, underscore); returns its URL.
  StatusOr<std::string> CreateDatabase(const std::string& name);
  const std::string& dir() const { return dir_; }

 private:
  PostgresServer(std::string dir, detail::RunAsUser user, int port,
                 std::vector<std::string> settings);
  // Spawns postgres and waits until it answers; INTERNAL with the server log otherwise.
  Status StartProcess();
  // Create's port loop: starts a server on `dir` (data/ ready) on a free port, trying a few.
  static StatusOr<std::unique_ptr<PostgresServer>> StartOnFreePort(
      const std::string& dir, const detail::RunAsUser& user, std::vector<std::string> settings);

  std::string dir_;  // temp dir: data/, the unix socket, postgres.log
  detail::RunAsUser user_;
  int port_;
  std::vector<std::string> settings_;  // extra "-c" settings, after the harness's own
  pid_t pid_ = -1;
  bool attached_ = false;  // Attach: another process owns the server
};

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_SUPPORT_POSTGRES_SERVER_H_
