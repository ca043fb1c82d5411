// File: tests/e2e/e2e_cluster.cc
#include "tests/e2e/e2e_cluster.h"

#include <arpa/inet.h>
#include <grpcpp/create_channel.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <pqxx/pqxx>
#include <thread>

#include "common/catalog/plan.h"
#include "tests/support/detail/process.h"
#include "tests/support/free_port.h"

namespace warpwatch::e2e {
namespace {


Status FromGrpc(const grpc::Status& s) {
  if (s.ok()) return OkStatus();
  return Status(static_cast<StatusCode>(static_cast<int>(s.error_code())), s.error_message());
}

constexpr int kPortAttempts = 5;

// True when a server process exited because a port it was given had been taken in the meantime
// (the gRPC listener's or the metrics exposer's bind failed with EADDRINUSE).
bool LostPortRace(const Status& status) {
  return status.message().find("Address already in use") != std::string::npos ||
         status.message().find("address in use") != std::string::npos;
}

}  // namespace

StatusOr<std::unique_ptr<E2eCluster>> E2eCluster::Create(ClusterOptions options) {
  std::unique_ptr<E2eCluster> c(new E2eCluster());
  c->options_ = options;
  char pattern[] = "/tmp/warpwatch-e2e-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return InternalError("mkdtemp failed");
  c->temp_dir_ = pattern;
  ASSIGN_OR_RETURN(c->fixture_, LoadReplayFixture(WARPWATCH_SOURCE_DIR));
  ASSIGN_OR_RETURN(c->postgres_, testing::PostgresServer::Create());
  ASSIGN_OR_RETURN(c->database_url_, c->postgres_->CreateDatabase("warpwatch_e2e"));
  // FreeLoopbackPort releases the port it found: a process started in between (another test's
  // PostgreSQL or server, under ctest -j) may take it first. That race, and only it, is retried.
  Status started = OkStatus();
  for (int attempt = 0; attempt < kPortAttempts; ++attempt) {
    ASSIGN_OR_RETURN(c->port_, testing::FreeLoopbackPort());
    c->jobs_ = v1::JobService::NewStub(grpc::CreateChannel(
        "127.0.0.1:" + std::to_string(c->port_), grpc::InsecureChannelCredentials()));
    started = c->StartServer();
    if (started.ok() || !LostPortRace(started)) break;
  }
  RETURN_IF_ERROR(started);
  return c;
}

E2eCluster::~E2eCluster() {
  server_.reset();
  postgres_.reset();
  if (std::getenv("WARPWATCH_E2E_KEEP") != nullptr) return;  // logs kept for a post-mortem
  std::error_code ignored;
  std::filesystem::remove_all(temp_dir_, ignored);
}

Status E2eCluster::StartServer() {
  ASSIGN_OR_RETURN(int metrics_port, testing::FreeLoopbackPort());
  metrics_port_ = metrics_port;
  std::vector<std::string> argv = {WARPWATCH_SERVER_PATH,
                                   "--listen=127.0.0.1:" + std::to_string(port_),
                                   "--database-url=" + database_url_,
                                   "--metrics-listen=127.0.0.1:" + std::to_string(metrics_port),
                                   "--lease-seconds=" + std::to_string(options_.lease_seconds),
                                   "--shutdown-grace-seconds=1"};
  argv.insert(argv.end(), options_.server_args.begin(), options_.server_args.end());
  ASSIGN_OR_RETURN(server_, ChildProcess::Start(argv, temp_dir_ + "/server.log"));
  // Ready once JobService answers (NOT_FOUND for a job that does not exist).
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < end) {
    if (!server_->running()) return InternalError("server exited:\n" + server_->LogTail());
    StatusOr<v1::Job> probe = GetJob(1);
    if (probe.ok() || probe.status().code() == StatusCode::kNotFound) return OkStatus();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return DeadlineExceededError("server not ready:\n" + server_->LogTail());
}

StatusOr<std::unique_ptr<ChildProcess>> E2eCluster::StartReplica(std::string* address) {
  StatusOr<std::unique_ptr<ChildProcess>> replica = InternalError("no attempt made");
  for (int attempt = 0; attempt < kPortAttempts; ++attempt) {
    replica = StartReplicaOnce(address);
    if (replica.ok() || !LostPortRace(replica.status())) break;
  }
  return replica;
}

StatusOr<std::unique_ptr<ChildProcess>> E2eCluster::StartReplicaOnce(std::string* address) {
  ASSIGN_OR_RETURN(int port, testing::FreeLoopbackPort());
  ASSIGN_OR_RETURN(int metrics_port, testing::FreeLoopbackPort());
  *address = "127.0.0.1:" + std::to_string(port);
  std::vector<std::string> argv = {WARPWATCH_SERVER_PATH,
                                   "--listen=" + *address,
                                   "--database-url=" + database_url_,
                                   "--metrics-listen=127.0.0.1:" + std::to_string(metrics_port),
                                   "--lease-seconds=" + std::to_string(options_.lease_seconds),
                                   "--shutdown-grace-seconds=1"};
  argv.insert(argv.end(), options_.server_args.begin(), options_.server_args.end());
  const std::string log =
      temp_dir_ + "/server-replica-" + std::to_string(replica_logs_.size()) + ".log";
  replica_logs_.push_back(log);
  ASSIGN_OR_RETURN(std::unique_ptr<ChildProcess> replica, ChildProcess::Start(argv, log));
  auto stub = v1::JobService::NewStub(
      grpc::CreateChannel(*address, grpc::InsecureChannelCredentials()));
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < end) {
    if (!replica->running()) return InternalError("replica exited:\n" + replica->LogTail());
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
    v1::GetJobRequest request;
    request.set_job_id(1);
    v1::Job job;
    const grpc::Status s = stub->GetJob(&context, request, &job);
    if (s.ok() || s.error_code() == grpc::StatusCode::NOT_FOUND) return replica;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return DeadlineExceededError("replica not ready:\n" + replica->LogTail());
}

Status E2eCluster::StopServer() {
  RETURN_IF_ERROR(server_->Signal(SIGTERM));
  ASSIGN_OR_RETURN(int code, server_->Wait(std::chrono::seconds(20)));
  if (code != 0) return InternalError("server exited " + std::to_string(code));
  return OkStatus();
}

StatusOr<std::unique_ptr<ChildProcess>> E2eCluster::StartWorker(const WorkerOptions& o) {
  std::string log = temp_dir_ + "/worker-" + std::to_string(worker_logs_.size()) + ".log";
  worker_logs_.push_back(log);
  // /metrics on port 0, one of the kernel's choosing: no test reads a worker's, and a port found
  // free beforehand can be taken by another test's process before the worker binds it (the
  // worker then exits "cannot serve metrics on 127.0.0.1:N", seen under a concurrent CI run).
  std::vector<std::string> argv = {WARPWATCH_REPLAY_WORKER_PATH,
                                   "serve",
                                   "--server=ipv4:127.0.0.1:" + std::to_string(port_),
                                   "--metrics-listen=127.0.0.1:0",
                                   "--acquire-wait-seconds=2",
                                   "--reconnect-initial-seconds=0.05",
                                   "--reconnect-max-seconds=0.5",
                                   "--grace-seconds=" + std::to_string(o.grace_seconds),
                                   "--replay-fixture=" + fixture_.path,
                                   "--replay-uuid=" + o.uuid,
                                   "--replay-max-point-seconds=" +
                                       std::to_string(o.max_point_seconds)};
  argv.insert(argv.end(), o.args.begin(), o.args.end());
  return ChildProcess::Start(argv, log);
}

StatusOr<v1::Job> E2eCluster::Submit(const v1::JobSpec& spec) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  v1::SubmitJobRequest request;
  *request.mutable_spec() = spec;
  v1::Job job;
  RETURN_IF_ERROR(FromGrpc(jobs_->SubmitJob(&context, request, &job)));
  return job;
}

StatusOr<v1::Job> E2eCluster::GetJob(int64_t id) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  v1::GetJobRequest request;
  request.set_job_id(id);
  v1::Job job;
  RETURN_IF_ERROR(FromGrpc(jobs_->GetJob(&context, request, &job)));
  return job;
}

StatusOr<v1::Job> E2eCluster::Cancel(int64_t id) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  v1::CancelJobRequest request;
  request.set_job_id(id);
  request.set_reason("e2e test");
  v1::Job job;
  RETURN_IF_ERROR(FromGrpc(jobs_->CancelJob(&context, request, &job)));
  return job;
}

StatusOr<v1::Job> E2eCluster::WaitForJob(int64_t id,
                                         const std::function<bool(const v1::Job&)>& done,
                                         std::chrono::milliseconds timeout) {
  auto end = std::chrono::steady_clock::now() + timeout;
  std::string last = "never read";
  while (std::chrono::steady_clock::now() < end) {
    StatusOr<v1::Job> job = GetJob(id);
    if (job.ok()) {
      if (done(*job)) return job;
      last = v1::JobState_Name(job->state()) + " " + std::to_string(job->points_done()) + "/" +
             std::to_string(job->points_total()) + " error=" + job->error();
    } else {
      last = job.status().ToString();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return DeadlineExceededError("job " + std::to_string(id) + " last seen: " + last);
}

StatusOr<std::vector<StoredRun>> E2eCluster::Runs(int64_t job_id) {
  try {
    pqxx::connection connection(database_url_);
    pqxx::work tx(connection);
    std::vector<StoredRun> runs;
    for (const auto& row :
         tx.exec_params("SELECT id, state FROM run WHERE job_id = $1 ORDER BY id", job_id)) {
      StoredRun run;
      run.id = row[0].as<int64_t>();
      run.state = row[1].as<std::string>();
      for (const auto& m : tx.exec_params(
               "SELECT case_canonical, status, error FROM measurement WHERE run_id = $1", run.id)) {
        ++run.cases[m[0].as<std::string>()];
        if (m[1].as<std::string>() == "SKIPPED") {
          run.skipped[m[0].as<std::string>()] = m[2].as<std::string>();
        }
      }
      runs.push_back(run);
    }
    return runs;
  } catch (const std::exception& e) {
    return InternalError(std::string("reading runs: ") + e.what());
  }
}

v1::JobSpec E2eCluster::RecordedSpec() const {
  v1::JobSpec spec = fixture_.recording.spec();
  spec.clear_selector();
  spec.clear_labels();
  (*spec.mutable_labels())["suite"] = "e2e";
  return spec;
}

int64_t E2eCluster::RecordedPoints() const {
  catalog::PlanLimits limits;
  auto points = catalog::ExpandSpec(RecordedSpec(), limits);
  return points.ok() ? static_cast<int64_t>(points->size()) : -1;
}

std::string E2eCluster::Logs() const {
  std::string out = "--- server log ---\n" +
                    testing::detail::FileTail(temp_dir_ + "/server.log", 3000);
  for (const std::string& log : replica_logs_) {
    out += "\n--- " + log + " ---\n" + testing::detail::FileTail(log, 3000);
  }
  for (const std::string& log : worker_logs_) {
    out += "\n--- " + log + " ---\n" + testing::detail::FileTail(log, 3000);
  }
  return out;
}

}  // namespace warpwatch::e2e
