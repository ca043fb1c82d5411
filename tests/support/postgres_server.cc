// File: tests/support/postgres_server.cc
// initdb (cached), start, stop and clean up a throwaway PostgreSQL.
#include "tests/support/postgres_server.h"

#include <arpa/inet.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <thread>

#include "tests/support/free_port.h"

namespace warpwatch::testing {
namespace {

namespace fs = std::filesystem;
using detail::RunAsUser;

constexpr const char* kCacheRoot = "/tmp/warpwatch-pg-cache";
constexpr const char* kCompleteMarker = "warpwatch-initdb-complete";
constexpr const char* kOwnerFile = "owner.pid";  // pid of the test process owning a temp dir

std::string Bin(const char* name) { return std::string(kPostgresBinDir) + "/" + name; }


StatusOr<std::string> MakeTempDir(const std::string& pattern) {
  std::string buf = pattern;
  if (mkdtemp(buf.data()) == nullptr) {
    return InternalError("mkdtemp " + pattern + ": " + std::strerror(errno));
  }
  return buf;
}

// Returns the path of a complete initdb'd data dir owned by `user`, creating it on first use.
// Safe when several test processes race: each builds its own copy and renames it into place.
StatusOr<std::string> CachedInitdb(const RunAsUser& user) {
  const std::string cache = std::string(kCacheRoot) + "/pg15-uid" +
                            std::to_string(user.switch_user ? user.uid : getuid());
  const std::string data = cache + "/data";
  if (fs::exists(cache + "/" + kCompleteMarker)) return data;
  mkdir(kCacheRoot, 0755);  // EEXIST is fine
  ASSIGN_OR_RETURN(std::string tmp, MakeTempDir(std::string(kCacheRoot) + "/build-XXXXXX"));
  RETURN_IF_ERROR(detail::ChownTo(tmp, user, false));
  Status s =
      detail::RunToCompletion({Bin("initdb"), "-D", tmp + "/data", "-U", "postgres", "--auth=trust",
                               "--encoding=UTF8", "--no-locale", "--no-sync"},
                              user, tmp + "/initdb.log", std::chrono::seconds(120));
  if (!s.ok()) {
    std::error_code ec;
    fs::remove_all(tmp, ec);
    return s.Annotate("initdb");
  }
  std::ofstream(tmp + "/" + kCompleteMarker) << "ok\n";
  if (rename(tmp.c_str(), cache.c_str()) != 0) {
    // Another process won the race (or a stale incomplete cache is in the way).
    std::error_code ec;
    if (!fs::exists(cache + "/" + kCompleteMarker)) {
      fs::remove_all(cache, ec);
      if (rename(tmp.c_str(), cache.c_str()) == 0) return data;
    }
    fs::remove_all(tmp, ec);
    if (!fs::exists(cache + "/" + kCompleteMarker)) {
      return InternalError("could not install the initdb cache at " + cache);
    }
  }
  return data;
}

// The first number in `path`, or 0.
pid_t ReadPid(const std::string& path) {
  std::ifstream in(path);
  long pid = 0;
  if (!(in >> pid)) return 0;
  return static_cast<pid_t>(pid);
}

bool Alive(pid_t pid) { return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM); }

// Removes temp dirs left by test processes that died without cleaning up (SIGKILL, a crash):
// those whose owner process is gone and whose postmaster is not running.
void SweepAbandonedDirs() {
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator("/tmp", ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("warpwatch-pg-", 0) != 0 || name == "warpwatch-pg-cache") continue;
    const pid_t owner = ReadPid(e.path().string() + "/" + kOwnerFile);
    if (owner == 0 || Alive(owner)) continue;  // no owner file yet: still being set up
    if (Alive(ReadPid(e.path().string() + "/data/postmaster.pid"))) continue;
    std::error_code ignored;
    fs::remove_all(e.path(), ignored);
  }
}

// Whether a server on 127.0.0.1:`port` accepts connections now.
bool Answers(int port, int connect_timeout_s) {
  const std::string conninfo = "host=127.0.0.1 port=" + std::to_string(port) +
                               " user=postgres dbname=postgres connect_timeout=" +
                               std::to_string(connect_timeout_s);
  return PQping(conninfo.c_str()) == PQPING_OK;
}

bool ValidName(const std::string& name) {
  if (name.empty() || name.size() > 60) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

}  // namespace

PostgresServer::PostgresServer(std::string dir, RunAsUser user, int port,
                               std::vector<std::string> settings)
    : dir_(std::move(dir)), user_(std::move(user)), port_(port), settings_(std::move(settings)) {}

StatusOr<std::unique_ptr<PostgresServer>> PostgresServer::Create(
    std::vector<std::string> settings) {
  SweepAbandonedDirs();
  ASSIGN_OR_RETURN(RunAsUser user, detail::ChildUser());
  ASSIGN_OR_RETURN(std::string cached, CachedInitdb(user));
  ASSIGN_OR_RETURN(std::string dir, MakeTempDir("/tmp/warpwatch-pg-XXXXXX"));
  std::ofstream(dir + "/" + kOwnerFile) << getpid() << "\n";
  auto cleanup = [&dir]() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  };
  Status s = detail::ChownTo(dir, user, false);
  if (s.ok()) {
    s = detail::RunToCompletion({"/bin/cp", "-a", cached, dir + "/data"}, user, dir + "/copy.log",
                                std::chrono::seconds(60));
  }
  if (!s.ok()) {
    cleanup();
    return s.Annotate("copying the cached cluster");
  }
  StatusOr<std::unique_ptr<PostgresServer>> server = StartOnFreePort(dir, user, settings);
  if (!server.ok()) cleanup();
  return server;
}

StatusOr<std::unique_ptr<PostgresServer>> PostgresServer::StartOnFreePort(
    const std::string& dir, const RunAsUser& user, std::vector<std::string> settings) {
  // A port may be taken between FreeLoopbackPort() and bind(); try a few.
  Status last;
  for (int attempt = 0; attempt < 5; ++attempt) {
    ASSIGN_OR_RETURN(int port, FreeLoopbackPort());
    std::unique_ptr<PostgresServer> server(new PostgresServer(dir, user, port, settings));
    last = server->StartProcess();
    if (last.ok()) return server;
    server->dir_.clear();  // keep the dir for the next attempt
  }
  return last;
}

StatusOr<std::unique_ptr<PostgresServer>> PostgresServer::CreateStandby(
    const PostgresServer& primary, std::vector<std::string> settings) {
  if (!primary.running()) return FailedPreconditionError("the primary is not running");
  SweepAbandonedDirs();
  ASSIGN_OR_RETURN(std::string dir, MakeTempDir("/tmp/warpwatch-pg-XXXXXX"));
  std::ofstream(dir + "/" + kOwnerFile) << getpid() << "\n";
  auto cleanup = [&dir]() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  };
  // -R writes standby.signal and primary_conninfo; -X stream copies the WAL the backup needs.
  // initdb --auth=trust already admits replication connections from 127.0.0.1.
  Status s = detail::ChownTo(dir, primary.user_, false);
  if (s.ok()) {
    s = detail::RunToCompletion(
        {Bin("pg_basebackup"), "-h", "127.0.0.1", "-p", std::to_string(primary.port_), "-U",
         "postgres", "-D", dir + "/data", "-R", "-X", "stream", "--checkpoint=fast", "--no-sync"},
        primary.user_, dir + "/basebackup.log", std::chrono::seconds(120));
  }
  if (!s.ok()) {
    cleanup();
    return s.Annotate("pg_basebackup");
  }
  settings.insert(settings.begin(), {"hot_standby=on", "wal_receiver_status_interval=1s"});
  StatusOr<std::unique_ptr<PostgresServer>> server =
      StartOnFreePort(dir, primary.user_, std::move(settings));
  if (!server.ok()) cleanup();
  return server;
}

StatusOr<std::unique_ptr<PostgresServer>> PostgresServer::Attach(int port) {
  if (port <= 0 || port > 65535) {
    return InvalidArgumentError("shared PostgreSQL port " + std::to_string(port) +
                                " is not a TCP port");
  }
  std::unique_ptr<PostgresServer> server(new PostgresServer("", RunAsUser{}, port, {}));
  server->attached_ = true;
  RETURN_IF_ERROR(server->Start());
  return server;
}

PostgresServer::~PostgresServer() {
  if (pid_ > 0) {
    kill(pid_, SIGQUIT);  // immediate shutdown: the data is thrown away anyway
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

Status PostgresServer::StartProcess() {
  const std::string log = dir_ + "/postgres.log";
  std::vector<std::string> args = {Bin("postgres"),
                                             "-D",
                                             dir_ + "/data",
                                             "-c",
                                             "port=" + std::to_string(port_),
                                             "-c",
                                             "listen_addresses=127.0.0.1",
                                             "-c",
                                             "unix_socket_directories=" + dir_,
                                             "-c",
                                             "fsync=off",
                                             "-c",
                                             "synchronous_commit=off",
                                             "-c",
                                             "full_page_writes=off",
                                             "-c",
                                             "shared_buffers=32MB",
                                             "-c",
                                             "max_connections=200",
                                             "-c",
                                             "dynamic_shared_memory_type=posix",
                                             "-c",
                                             "log_min_messages=warning",
                                             "-c",
                                             "logging_collector=off"};
  for (const std::string& setting : settings_) {
    args.push_back("-c");
    args.push_back(setting);
  }
  ASSIGN_OR_RETURN(pid_t pid, detail::Spawn(args, user_, log, /*die_with_parent=*/true));
  pid_ = pid;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return InternalError("postgres exited at start; log: " + detail::FileTail(log));
    }
    if (Answers(port_, 2)) return OkStatus();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid_, SIGQUIT);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return InternalError("postgres did not answer within 60 s; log: " + detail::FileTail(log));
}

Status PostgresServer::Stop() {
  if (attached_) {
    return FailedPreconditionError(
        "the shared PostgreSQL on port " + std::to_string(port_) +
        " belongs to tests/run.sh: a test that stops its server sets own_server_ "
        "(tests/support/postgres_test.h)");
  }
  if (pid_ <= 0) return OkStatus();
  kill(pid_, SIGINT);  // fast shutdown: disconnects clients, then exits
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) != pid_) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  pid_ = -1;
  return OkStatus();
}

Status PostgresServer::Start() {
  if (attached_) {
    if (Answers(port_, 5)) return OkStatus();
    return UnavailableError("the shared PostgreSQL on 127.0.0.1:" + std::to_string(port_) +
                            " does not answer (WARPWATCH_TEST_POSTGRES_PORT)");
  }
  if (pid_ > 0) return OkStatus();
  return StartProcess();
}

std::string PostgresServer::Url(const std::string& database) const {
  return "postgresql://postgres@127.0.0.1:" + std::to_string(port_) + "/" + database;
}

StatusOr<std::string> PostgresServer::CreateDatabase(const std::string& name) {
  if (!ValidName(name)) return InvalidArgumentError("bad database name \"" + name + "\"");
  try {
    pqxx::connection conn(Url("postgres"));
    pqxx::nontransaction tx(conn);
    tx.exec("CREATE DATABASE " + tx.quote_name(name) + " TEMPLATE template0");
  } catch (const std::exception& e) {
    return InternalError("CREATE DATABASE " + name + ": " + e.what());
  }
  return Url(name);
}

}  // namespace warpwatch::testing
