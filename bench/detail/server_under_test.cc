// File: bench/detail/server_under_test.cc
#include "bench/detail/server_under_test.h"

#include <arpa/inet.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/support/channel_arguments.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <random>
#include <sstream>
#include <thread>

#include "tests/support/free_port.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::bench {
namespace {


std::string RandomToken(std::mt19937_64& rng) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string t(32, 'a');
  for (char& c : t) c = kChars[rng() % (sizeof(kChars) - 1)];
  return t;
}

}  // namespace

StatusOr<std::unique_ptr<ServerUnderTest>> ServerUnderTest::Start(
    const std::string& server_path, int worker_tokens, const std::vector<std::string>& extra_flags) {
  std::unique_ptr<ServerUnderTest> s(new ServerUnderTest());
  char pattern[] = "/tmp/warpwatch-load-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return InternalError("mkdtemp failed");
  s->temp_dir_ = pattern;
  ASSIGN_OR_RETURN(s->postgres_, testing::PostgresServer::Create());
  ASSIGN_OR_RETURN(s->database_url_, s->postgres_->CreateDatabase("warpwatch_load"));
  s->probe_ = std::make_unique<pqxx::connection>(s->database_url_);

  std::mt19937_64 rng(std::random_device{}());
  s->submitter_token_ = RandomToken(rng);
  std::ofstream tokens(s->temp_dir_ + "/tokens");
  tokens << s->submitter_token_ << " submitter bench-submitter\n";
  tokens << RandomToken(rng) << " admin bench-admin\n";
  for (int i = 0; i < worker_tokens; ++i) {
    s->worker_tokens_.push_back(RandomToken(rng));
    tokens << s->worker_tokens_.back() << " worker bench-worker-" << i << "\n";
  }
  tokens.close();

  ASSIGN_OR_RETURN(const int port, testing::FreeLoopbackPort());
  ASSIGN_OR_RETURN(const int metrics_port, testing::FreeLoopbackPort());
  s->address_ = "127.0.0.1:" + std::to_string(port);
  s->metrics_port_ = metrics_port;
  std::vector<std::string> argv = {server_path,
                                   "--listen=" + s->address_,
                                   "--database-url=" + s->database_url_,
                                   "--metrics-listen=127.0.0.1:" + std::to_string(metrics_port),
                                   "--tokens-file=" + s->temp_dir_ + "/tokens",
                                   "--log-level=warn",
                                   "--shutdown-grace-seconds=1"};
  argv.insert(argv.end(), extra_flags.begin(), extra_flags.end());
  ASSIGN_OR_RETURN(s->server_, e2e::ChildProcess::Start(argv, s->temp_dir_ + "/server.log"));

  // Ready once JobService answers (NOT_FOUND for a job that does not exist).
  auto jobs = v1::JobService::NewStub(s->NewChannel());
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < end) {
    if (!s->server_->running()) return InternalError("server exited:\n" + s->server_->LogTail());
    grpc::ClientContext context;
    Authorize(context, s->submitter_token_);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
    v1::GetJobRequest request;
    request.set_job_id(1);
    v1::Job job;
    const grpc::Status status = jobs->GetJob(&context, request, &job);
    if (status.ok() || status.error_code() == grpc::StatusCode::NOT_FOUND) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return DeadlineExceededError("server not ready:\n" + s->server_->LogTail());
}

ServerUnderTest::~ServerUnderTest() {
  probe_.reset();
  server_.reset();
  postgres_.reset();
  std::error_code ignored;
  if (std::getenv("WARPWATCH_BENCH_KEEP") == nullptr) std::filesystem::remove_all(temp_dir_, ignored);
}

std::shared_ptr<grpc::Channel> ServerUnderTest::NewChannel() const {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);  // a connection of its own
  args.SetMaxReceiveMessageSize(16 << 20);
  return grpc::CreateCustomChannel(address_, grpc::InsecureChannelCredentials(), args);
}

void ServerUnderTest::Authorize(grpc::ClientContext& context, const std::string& token) {
  context.AddMetadata("authorization", "Bearer " + token);
}

StatusOr<ProcessUse> ServerUnderTest::Use() const {
  const std::string proc = "/proc/" + std::to_string(server_->pid());
  std::ifstream stat(proc + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos) return InternalError("cannot read " + proc + "/stat");
  std::istringstream fields(text.substr(paren + 2));
  std::string field;
  ProcessUse use;
  // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
  double utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stod(field);
    if (i == 15) stime = std::stod(field);
  }
  use.cpu_seconds = (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
  std::ifstream status(proc + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) use.threads = std::stoi(line.substr(8));
    if (line.rfind("VmRSS:", 0) == 0) use.rss_mib = std::stod(line.substr(6)) / 1024.0;
  }
  return use;
}

StatusOr<int> ServerUnderTest::DatabaseConnections() {
  try {
    pqxx::nontransaction tx(*probe_);
    // Every backend of the benchmark's database but this probe's own.
    return tx.exec1("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND pid <> pg_backend_pid()")[0]
        .as<int>();
  } catch (const std::exception& e) {
    return InternalError(std::string("pg_stat_activity: ") + e.what());
  }
}

StatusOr<double> ServerUnderTest::DatabaseRoundTripMs() {
  try {
    pqxx::nontransaction tx(*probe_);
    const auto start = std::chrono::steady_clock::now();
    tx.exec1("SELECT 1");
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  } catch (const std::exception& e) {
    return InternalError(std::string("SELECT 1: ") + e.what());
  }
}

}  // namespace warpwatch::bench
