// File: tests/support/postgres_test.cc
#include "tests/support/postgres_test.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <pqxx/pqxx>
#include <thread>

namespace warpwatch::testing {
namespace {

// pg_advisory_lock key under which a template is built ("wwtempl8" in ASCII).
constexpr int64_t kTemplateLockKey = 0x777774656d706c38;

// A server owned by this process (started) or attached to the run's shared one, kept until exit.
using ServerSlot = StatusOr<std::unique_ptr<PostgresServer>>;

StatusOr<PostgresServer*> Kept(ServerSlot* slot) {
  if (!slot->ok()) return slot->status();
  return slot->value().get();
}

StatusOr<std::unique_ptr<PostgresServer>> AttachShared(const char* port) {
  char* end = nullptr;
  const long value = std::strtol(port, &end, 10);
  if (end == port || *end != '\0') {
    return InvalidArgumentError(std::string(kSharedPostgresPortEnv) + "=\"" + port +
                                "\" is not a port number");
  }
  return PostgresServer::Attach(static_cast<int>(value));
}

// Builds `from` on `server` unless it is there. Caller holds kTemplateLockKey on `admin`.
Status EnsureTemplate(PostgresServer& server, pqxx::connection& admin,
                      const DatabaseTemplate& from) {
  const std::string building = from.name + "_building";
  {
    pqxx::nontransaction tx(admin);
    if (!tx.exec_params("SELECT 1 FROM pg_database WHERE datname = $1", from.name).empty()) {
      return OkStatus();
    }
    tx.exec("DROP DATABASE IF EXISTS " + tx.quote_name(building));
    tx.exec("CREATE DATABASE " + tx.quote_name(building) + " TEMPLATE template0");
  }
  Status filled = from.fill(server.Url(building));
  if (!filled.ok()) return filled.Annotate("building template database " + from.name);
  // A backend outlives its client's disconnect by a moment, and RENAME refuses while one is on
  // the database: retry for up to 5 s.
  for (int attempt = 0;; ++attempt) {
    try {
      pqxx::nontransaction tx(admin);
      tx.exec("ALTER DATABASE " + tx.quote_name(building) + " RENAME TO " +
              tx.quote_name(from.name));
      return OkStatus();
    } catch (const pqxx::sql_error&) {
      if (attempt == 250) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
}

StatusOr<std::string> CopyOfTemplate(PostgresServer& server, const std::string& name,
                                     const DatabaseTemplate& from) {
  if (from.name.empty() || from.name.size() > 40 || !from.fill) {
    return InvalidArgumentError("template \"" + from.name +
                                "\": a name of 1-40 characters and a fill");
  }
  try {
    pqxx::connection admin(server.Url("postgres"));
    {
      pqxx::nontransaction lock(admin);
      lock.exec_params("SELECT pg_advisory_lock($1)", kTemplateLockKey);
    }
    Status ensured = EnsureTemplate(server, admin, from);
    pqxx::nontransaction tx(admin);
    tx.exec_params("SELECT pg_advisory_unlock($1)", kTemplateLockKey);
    RETURN_IF_ERROR(ensured);
    tx.exec("CREATE DATABASE " + tx.quote_name(name) + " TEMPLATE " + tx.quote_name(from.name));
  } catch (const std::exception& e) {
    return InternalError("CREATE DATABASE " + name + " TEMPLATE " + from.name + ": " + e.what());
  }
  return server.Url(name);
}

}  // namespace

StatusOr<PostgresServer*> OwnPostgres() {
  static ServerSlot* server = new ServerSlot(PostgresServer::Create());
  // Destroyed at exit so the server and its temp dir go away with the process.
  static struct Reaper {
    ~Reaper() {
      if (server->ok()) server->value().reset();
    }
  } reaper;
  return Kept(server);
}

StatusOr<PostgresServer*> SharedPostgres() {
  static const char* port = std::getenv(kSharedPostgresPortEnv);
  if (port == nullptr || *port == '\0') return OwnPostgres();
  static ServerSlot* shared = new ServerSlot(AttachShared(port));
  return Kept(shared);
}

StatusOr<std::string> FreshDatabaseUrl(PostgresServer* server, const DatabaseTemplate* from) {
  static std::atomic<int> counter{0};
  if (server == nullptr) {
    ASSIGN_OR_RETURN(server, SharedPostgres());
  }
  const std::string name = "t" + std::to_string(getpid()) + "_" + std::to_string(++counter);
  if (from == nullptr) return server->CreateDatabase(name);
  return CopyOfTemplate(*server, name, *from);
}

void PostgresTest::SetUp() {
  StatusOr<PostgresServer*> server = own_server_ ? OwnPostgres() : SharedPostgres();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  server_ = *server;
  Status started = server_->Start();
  ASSERT_TRUE(started.ok()) << started.ToString();
  StatusOr<std::string> url = FreshDatabaseUrl(server_, Template());
  ASSERT_TRUE(url.ok()) << url.status().ToString();
  url_ = *url;
}

}  // namespace warpwatch::testing
