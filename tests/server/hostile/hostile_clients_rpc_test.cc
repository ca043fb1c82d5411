// File: tests/server/hostile/hostile_clients_rpc_test.cc
// Careless and hostile clients against a real in-process server (token mode, real channels):
// oversize messages, a watch never read, more WatchJob streams than the server allows, long-polls
// from unregistered workers, expired and malformed tokens. Each gets a clear status code, the
// server keeps answering everyone else, health answers within kHealthBudget throughout (a probe
// runs during every test), nothing stored changes, and no token ever reaches the logs.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <chrono>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/health/health.grpc.pb.h"
#include "tests/server/runtime/rpc_test_fixture.h"
#include "warpwatch/v1/job.grpc.pb.h"
#include "warpwatch/v1/worker.grpc.pb.h"

namespace warpwatch::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr const char* kHostileClientsSubmitter = "submitter-token-4f1c9a2e77";
constexpr const char* kHostileClientsReader = "reader-token-8b3d5e6f90";
constexpr const char* kHostileClientsWorker = "worker-token-1a2b3c4d5e";
constexpr const char* kExpired = "expired-token-9e8d7c6b5a";
constexpr int kMaxWatches = 32;

// Health must keep answering throughout. The test asserts that no check fails and none takes a
// second (a server whose threads are all stuck answers in seconds or never), and prints the
// slowest and the 99th percentile: on a 2-core host shared with ctest -j2 or a compiler, scheduling
// alone delays single checks past 100 ms, so the 100 ms figure is measured on a quiet host and
// recorded in docs/results/hostile_clients.md, not asserted here.
constexpr auto kHealthStall = 1000ms;

// A channel of its own (no TCP connection shared with other channels to the same address, which
// gRPC does by default): what one hostile client does to its connection stays on it.
std::shared_ptr<grpc::Channel> OwnChannel(const std::string& address) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
}

// Checks health every 10 ms on its own channel until stopped; remembers the slowest answer and
// any check that failed.
class HealthProbe {
 public:
  explicit HealthProbe(const std::string& address)
      : stub_(grpc::health::v1::Health::NewStub(OwnChannel(address))),
        thread_([this] { Run(); }) {}
  ~HealthProbe() { Stop(); }

  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  std::chrono::milliseconds slowest() const { return slowest_; }
  std::chrono::milliseconds p99() const {
    if (took_.empty()) return std::chrono::milliseconds(0);
    std::vector<std::chrono::milliseconds> sorted = took_;
    std::sort(sorted.begin(), sorted.end());
    return sorted[(sorted.size() - 1) * 99 / 100];
  }
  int failures() const { return failures_; }
  int checks() const { return checks_; }
  const std::string& last_failure() const { return last_failure_; }

 private:
  void Run() {
    while (!stop_) {
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + 2s);
      grpc::health::v1::HealthCheckRequest request;
      grpc::health::v1::HealthCheckResponse response;
      const auto start = Clock::now();
      const grpc::Status status = stub_->Check(&context, request, &response);
      const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
      ++checks_;
      took_.push_back(took);
      if (!status.ok() || response.status() != grpc::health::v1::HealthCheckResponse::SERVING) {
        ++failures_;
        last_failure_ = std::to_string(status.error_code()) + " " + status.error_message();
      }
      if (took > slowest_) slowest_ = took;
      std::this_thread::sleep_for(10ms);
    }
  }

  std::unique_ptr<grpc::health::v1::Health::Stub> stub_;
  std::atomic<bool> stop_{false};
  // Written by thread_ only, read after Stop().
  std::chrono::milliseconds slowest_{0};
  std::vector<std::chrono::milliseconds> took_;
  int failures_ = 0;
  int checks_ = 0;
  std::string last_failure_;
  std::thread thread_;
};

int ProcessThreads() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

class HostileClientsRpcTest : public RpcTest {
 protected:
  void SetUp() override {
    RpcTest::SetUp();
    // Everything the server logs, at every level, is kept to be searched for tokens.
    sink_ = std::make_shared<spdlog::sinks::ostream_sink_mt>(log_);
    spdlog::default_logger()->sinks().push_back(sink_);
    previous_level_ = spdlog::default_logger()->level();
    spdlog::set_level(spdlog::level::trace);

    server::ServerConfig config = TestConfig();
    config.log_level = "trace";
    config.tokens_file =
        dir_.Write("tokens", std::string(kHostileClientsSubmitter) + " submitter ci\n" +
                                 kHostileClientsReader + " reader dashboards\n" +
                                 kHostileClientsWorker + " worker node-1\n" + kExpired +
                                 " submitter contractor expires=2020-01-01T00:00:00Z\n");
    config.max_watch_streams = kMaxWatches;
    config.max_watch_streams_per_principal = kMaxWatches;  // one reader token opens them all
    config.max_parked_polls_per_principal = 1000;           // one worker token polls 200 at once
    StartServer(config);
    probe_ = std::make_unique<HealthProbe>(Address());
  }

  void TearDown() override {
    probe_->Stop();
    EXPECT_EQ(probe_->failures(), 0) << "health checks that failed, last: " << probe_->last_failure();
    EXPECT_GT(probe_->checks(), 0);
    EXPECT_LT(probe_->slowest(), kHealthStall) << "slowest health answer";
    std::printf("health during the test: %d checks, p99 %lld ms, slowest %lld ms\n",
                probe_->checks(), static_cast<long long>(probe_->p99().count()),
                static_cast<long long>(probe_->slowest().count()));
    RpcTest::TearDown();
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
    spdlog::set_level(previous_level_);
    const std::string logs = log_.str();
    EXPECT_NE(logs.find("bearer tokens loaded"), std::string::npos) << "the log capture saw nothing";
    for (const char* token :
         {kHostileClientsSubmitter, kHostileClientsReader, kHostileClientsWorker, kExpired}) {
      EXPECT_EQ(logs.find(token), std::string::npos) << "a token reached the logs";
    }
  }

  int64_t SubmitOne() {
    v1::SubmitJobRequest request;
    *request.mutable_spec() = ValidSpec();
    v1::Job job;
    const grpc::Status status =
        JobStub()->SubmitJob(Context(kHostileClientsSubmitter).get(), request, &job);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return job.id();
  }

  v1::Job Get(int64_t id) {
    v1::GetJobRequest request;
    request.set_job_id(id);
    v1::Job job;
    const grpc::Status status =
        JobStub()->GetJob(Context(kHostileClientsReader).get(), request, &job);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return job;
  }

  TempDir dir_;
  std::ostringstream log_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
  spdlog::level::level_enum previous_level_ = spdlog::level::info;
  std::unique_ptr<HealthProbe> probe_;
};

TEST_F(HostileClientsRpcTest, AMessageOverTheServersLimitIsResourceExhaustedAndTheServerGoesOn) {
  v1::SubmitJobRequest request;
  *request.mutable_spec() = ValidSpec();
  (*request.mutable_spec()->mutable_labels())["blob"] = std::string(40u << 20, 'a');  // > 33 MiB
  v1::Job job;
  const grpc::Status status =
      v1::JobService::NewStub(OwnChannel(Address()))
          ->SubmitJob(Context(kHostileClientsSubmitter).get(), request, &job);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();

  const int64_t id = SubmitOne();
  EXPECT_EQ(Get(id).state(), v1::JOB_STATE_QUEUED);
}

TEST_F(HostileClientsRpcTest, AMessageUnderTheMethodsLimitButOverAFieldsLimitNamesTheField) {
  v1::SubmitJobRequest request;
  *request.mutable_spec() = ValidSpec();
  // Under the 4 MiB every small method takes (detail::kMaxSmallRequestBytes).
  (*request.mutable_spec()->mutable_labels())["blob"] = std::string(2u << 20, 'a');
  v1::Job job;
  const grpc::Status status =
      JobStub()->SubmitJob(Context(kHostileClientsSubmitter).get(), request, &job);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("blob"), std::string::npos) << status.error_message();
}

TEST_F(HostileClientsRpcTest, AMessageOverASmallMethodsLimitIsRefusedNamingIt) {
  v1::SubmitJobRequest request;
  *request.mutable_spec() = ValidSpec();
  (*request.mutable_spec()->mutable_labels())["blob"] = std::string(8u << 20, 'a');
  v1::Job job;
  const grpc::Status status =
      JobStub()->SubmitJob(Context(kHostileClientsSubmitter).get(), request, &job);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(status.error_message().find("limit of 4194304"), std::string::npos)
      << status.error_message();
}

TEST_F(HostileClientsRpcTest, OversizeMetadataIsRefusedAndTheServerGoesOn) {
  auto context = Context(kHostileClientsReader);
  context->AddMetadata("x-junk", std::string(64 * 1024, 'j'));
  v1::GetJobRequest request;
  request.set_job_id(1);
  v1::Job job;
  const grpc::Status status =
      v1::JobService::NewStub(OwnChannel(Address()))->GetJob(context.get(), request, &job);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.error_code(), grpc::StatusCode::UNKNOWN) << status.error_message();
  EXPECT_EQ(Get(SubmitOne()).state(), v1::JOB_STATE_QUEUED);
}

TEST_F(HostileClientsRpcTest, AWatchThatIsNeverReadNeitherHoldsUpTheJobNorTheServer) {
  const int64_t id = SubmitOne();
  auto watch_context = Context(kHostileClientsReader);
  watch_context->set_deadline(std::chrono::system_clock::now() + 60s);
  v1::GetJobRequest request;
  request.set_job_id(id);
  std::unique_ptr<grpc::ClientReader<v1::JobEvent>> unread =
      JobStub()->WatchJob(watch_context.get(), request);  // never Read()

  v1::CancelJobRequest cancel;
  cancel.set_job_id(id);
  v1::Job job;
  ASSERT_TRUE(JobStub()->CancelJob(Context(kHostileClientsSubmitter).get(), cancel, &job).ok());
  EXPECT_TRUE(WaitUntil([&] { return Get(id).state() == v1::JOB_STATE_CANCELLED; }, 5s));

  // The server stops promptly with the unread stream still open.
  const auto start = Clock::now();
  probe_->Stop();
  runtime_->Shutdown(1s);
  EXPECT_LT(Clock::now() - start, 5s);
  watch_context->TryCancel();
  runtime_.reset();
}

TEST_F(HostileClientsRpcTest, WatchesPastTheLimitAreRefusedAtOnceAndTheirSlotsComeBack) {
  const int64_t id = SubmitOne();
  const int threads_before = ProcessThreads();
  constexpr int kStreams = 1000;
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<grpc::ClientReader<v1::JobEvent>>> readers;
  // Several channels, as many clients would use.
  std::vector<std::unique_ptr<v1::JobService::Stub>> stubs;
  for (int i = 0; i < 8; ++i) {
    stubs.push_back(v1::JobService::NewStub(OwnChannel(Address())));
  }
  v1::GetJobRequest request;
  request.set_job_id(id);
  for (int i = 0; i < kStreams; ++i) {
    contexts.push_back(Context(kHostileClientsReader));
    contexts.back()->set_deadline(std::chrono::system_clock::now() + 120s);
    readers.push_back(stubs[i % stubs.size()]->WatchJob(contexts.back().get(), request));
  }
  int open = 0, refused = 0, other = 0;
  std::string other_message;
  for (int i = 0; i < kStreams; ++i) {
    v1::JobEvent event;
    if (readers[i]->Read(&event)) {
      ++open;
      EXPECT_EQ(event.job().id(), id);
      continue;
    }
    const grpc::Status status = readers[i]->Finish();
    if (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
      ++refused;
      EXPECT_NE(status.error_message().find("--max-watch-streams"), std::string::npos);
    } else {
      ++other;
      other_message = status.error_message();
    }
  }
  EXPECT_EQ(open, kMaxWatches);
  EXPECT_EQ(refused, kStreams - kMaxWatches);
  EXPECT_EQ(other, 0) << other_message;
  // The open watches hold a thread each, the refused ones none.
  EXPECT_LT(ProcessThreads() - threads_before, kMaxWatches + 64);
  EXPECT_EQ(Get(id).state(), v1::JOB_STATE_QUEUED);

  for (auto& context : contexts) context->TryCancel();
  readers.clear();
  // Their slots come back: a new watch is served.
  EXPECT_TRUE(WaitUntil(
      [&] {
        auto context = Context(kHostileClientsReader);
        auto reader = JobStub()->WatchJob(context.get(), request);
        v1::JobEvent event;
        const bool served = reader->Read(&event);
        context->TryCancel();
        reader->Finish();
        return served;
      },
      5s));
}

TEST_F(HostileClientsRpcTest, LongPollsFromUnregisteredWorkersAreRefusedWithoutWaiting) {
  const int64_t id = SubmitOne();
  auto stub = v1::WorkerService::NewStub(Channel());
  constexpr int kPolls = 200;
  std::vector<std::thread> pollers;
  std::atomic<int> not_found{0}, slow{0}, other{0};
  for (int i = 0; i < kPolls; ++i) {
    pollers.emplace_back([&, i] {
      v1::AcquireJobRequest request;
      request.set_worker_id("w-never-registered-" + std::to_string(i));
      request.set_device_uuid("GPU-00000000-0000-0000-0000-" + std::to_string(100000000000 + i));
      request.set_wait_seconds(30);
      v1::AcquireJobResponse response;
      auto context = Context(kHostileClientsWorker);
      const auto start = Clock::now();
      const grpc::Status status = stub->AcquireJob(context.get(), request, &response);
      if (Clock::now() - start > 2s) ++slow;
      if (status.error_code() == grpc::StatusCode::NOT_FOUND ||
          status.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
        ++not_found;
      } else {
        ++other;
      }
    });
  }
  for (auto& poller : pollers) poller.join();
  EXPECT_EQ(not_found, kPolls);
  EXPECT_EQ(other, 0);
  EXPECT_EQ(slow, 0);
  EXPECT_EQ(Get(id).state(), v1::JOB_STATE_QUEUED);  // nobody took it
}

TEST_F(HostileClientsRpcTest, AnExpiredTokenIsUnauthenticatedAndSaysWhenItExpired) {
  v1::SubmitJobRequest request;
  *request.mutable_spec() = ValidSpec();
  v1::Job job;
  const grpc::Status status = JobStub()->SubmitJob(Context(kExpired).get(), request, &job);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_NE(status.error_message().find("\"contractor\" expired at 2020-01-01T00:00:00Z"),
            std::string::npos)
      << status.error_message();
  // The same request with a valid token of the same role goes through.
  EXPECT_TRUE(JobStub()->SubmitJob(Context(kHostileClientsSubmitter).get(), request, &job).ok());
}

TEST_F(HostileClientsRpcTest, MalformedAuthorizationIsUnauthenticatedAndNeverEchoed) {
  const std::vector<std::string> headers = {
      "Bearer",
      std::string("Basic ") + kHostileClientsSubmitter,
      kHostileClientsSubmitter,
      std::string("Bearer ") + kHostileClientsSubmitter + "x",
      std::string("Bearer ") + std::string(6000, 'z'),
      std::string("Bearer ") + kHostileClientsReader + " " + kHostileClientsSubmitter};
  for (const std::string& header : headers) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + 10s);
    context.AddMetadata("authorization", header);
    v1::SubmitJobRequest request;
    *request.mutable_spec() = ValidSpec();
    v1::Job job;
    const grpc::Status status = JobStub()->SubmitJob(&context, request, &job);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << header.substr(0, 30);
    EXPECT_EQ(status.error_message().find("token-"), std::string::npos) << status.error_message();
    EXPECT_EQ(status.error_message().find("zzzz"), std::string::npos);
  }
  v1::ListJobsRequest list;
  v1::ListJobsResponse jobs;
  ASSERT_TRUE(JobStub()->ListJobs(Context(kHostileClientsReader).get(), list, &jobs).ok());
  EXPECT_EQ(jobs.jobs_size(), 0);  // nothing was stored for any of them
}

}  // namespace
}  // namespace warpwatch::testing
