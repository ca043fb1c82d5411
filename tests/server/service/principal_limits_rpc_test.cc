// Bounded per principal (issue 23) over real channels to an in-process server on a real
// PostgreSQL: WatchJob streams per principal and their lifetime, parked AcquireJob polls per
// principal, UploadRun calls per minute, schedules per principal and a cron's frequency. Each
// over-limit call answers RESOURCE_EXHAUSTED naming the flag, and another principal is not held
// back by the first one's use. Each test sets its own small limits (server/config). Also the
// streams one client connection may hold open (--max-streams-per-connection).
#include <google/protobuf/util/json_util.h>
#include <grpcpp/create_channel.h>
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <vector>

#include "tests/server/service/result_rpc_test_util.h"
#include "warpwatch/v1/schedule.grpc.pb.h"

namespace warpwatch::testing {
namespace {

void ExpectExhaustedNaming(const grpc::Status& s, const std::string& flag) {
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_NE(s.error_message().find(flag), std::string::npos) << s.error_message();
}

class PrincipalLimitsRpcTest : public ResultRpcTest {
 protected:
  void Configure(server::ServerConfig& config) override {
    config.max_watch_streams_per_principal = 2;
    config.max_watch_seconds = 2;
    config.max_parked_polls_per_principal = 1;
    config.max_uploads_per_minute = 2;
    config.max_schedules_per_principal = 1;
    config.min_schedule_interval_seconds = 3600;
  }

  // An open WatchJob stream of `job_id` as `token`, its first event read (ASSERTed by the caller
  // through the returned stream's status when it is refused at once).
  struct Watch {
    std::unique_ptr<grpc::ClientContext> context;
    std::unique_ptr<grpc::ClientReader<v1::JobEvent>> reader;
    bool first_event = false;
  };
  Watch OpenWatch(const std::string& token, int64_t job_id) {
    Watch w;
    w.context = Context(token);
    w.context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    v1::GetJobRequest request;
    request.set_job_id(job_id);
    w.reader = JobStub()->WatchJob(w.context.get(), request);
    v1::JobEvent event;
    w.first_event = w.reader->Read(&event);
    return w;
  }

  std::unique_ptr<v1::ScheduleService::Stub> Schedules() const {
    return v1::ScheduleService::NewStub(Channel());
  }
  grpc::Status CreateSchedule(const std::string& token, const std::string& name,
                              const std::string& cron) {
    v1::CreateScheduleRequest request;
    request.mutable_schedule()->set_name(name);
    request.mutable_schedule()->set_cron(cron);
    *request.mutable_schedule()->mutable_job_template() = ValidSpec();
    v1::Schedule created;
    return Schedules()->CreateSchedule(Context(token).get(), request, &created);
  }

  grpc::Status Upload(const std::string& token, double median) {
    v1::RunResult result;
    result.mutable_environment()->mutable_device()->set_uuid("GPU-airgapped-1");
    result.mutable_environment()->mutable_device()->set_name(kModel);
    *result.add_measurements() = ResultPoint("tree", median);
    std::string json;
    EXPECT_TRUE(google::protobuf::util::MessageToJsonString(result, &json).ok());
    v1::UploadRunRequest request;
    request.set_run_result_json(json);
    v1::UploadRunResponse response;
    return Results()->UploadRun(Context(token).get(), request, &response);
  }
};

TEST_F(PrincipalLimitsRpcTest, APrincipalHoldsAtMostItsWatchStreamsOthersStillWatch) {
  const v1::Job job = Submit();
  Watch first = OpenWatch(kSubmitterToken, job.id());
  Watch second = OpenWatch(kSubmitterToken, job.id());
  ASSERT_TRUE(first.first_event);
  ASSERT_TRUE(second.first_event);
  Watch third = OpenWatch(kSubmitterToken, job.id());
  EXPECT_FALSE(third.first_event);
  ExpectExhaustedNaming(third.reader->Finish(), "--max-watch-streams-per-principal");
  Watch readers = OpenWatch(kReaderToken, job.id());
  EXPECT_TRUE(readers.first_event);
  for (Watch* w : {&first, &second, &readers}) w->context->TryCancel();
  for (Watch* w : {&first, &second, &readers}) w->reader->Finish();
  // The slots come back with the streams (the server notices a cancelled stream at its next
  // poll of the job).
  EXPECT_TRUE(WaitUntil(
      [&] {
        Watch again = OpenWatch(kSubmitterToken, job.id());
        again.context->TryCancel();
        again.reader->Finish();
        return again.first_event;
      },
      std::chrono::seconds(10)));
}

TEST_F(PrincipalLimitsRpcTest, AWatchStreamEndsAtItsMaximumLifetime) {
  const v1::Job job = Submit();  // stays QUEUED: the stream would never end by itself
  const auto start = std::chrono::steady_clock::now();
  Watch w = OpenWatch(kReaderToken, job.id());
  ASSERT_TRUE(w.first_event);
  v1::JobEvent event;
  while (w.reader->Read(&event)) {
  }
  ExpectExhaustedNaming(w.reader->Finish(), "--max-watch-seconds");
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1900));
}

TEST_F(PrincipalLimitsRpcTest, APrincipalParksAtMostItsPollsAtOnce) {
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", kModel)}).worker_id();
  // A poll that parks (nothing is queued) for 4 s, started again should it meet one of the
  // probes below holding the slot on its arrival.
  auto park = [&] {
    return std::async(std::launch::async, [&] {
      grpc::Status status;
      Acquire(worker, "GPU-1", 4, &status);
      return status;
    });
  };
  std::future<grpc::Status> parked = park();
  // Probes with no wait: an admitted one answers empty at once; once the parked poll holds the
  // slot, a probe is refused.
  grpc::Status probe;
  EXPECT_TRUE(WaitUntil(
      [&] {
        if (parked.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
          parked = park();
        }
        Acquire(worker, "GPU-1", 0, &probe);
        return probe.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED;
      },
      std::chrono::seconds(20)));
  ExpectExhaustedNaming(probe, "--max-parked-polls-per-principal");
  const grpc::Status parked_status = parked.get();
  EXPECT_TRUE(parked_status.ok()) << parked_status.error_message();
  // Its slot came back with its answer.
  Acquire(worker, "GPU-1", 0, &probe);
  EXPECT_TRUE(probe.ok()) << probe.error_message();
}

TEST_F(PrincipalLimitsRpcTest, APrincipalUploadsAtMostItsRunsPerMinuteOthersStillUpload) {
  ASSERT_TRUE(Upload(kSubmitterToken, 1e-3).ok());
  ASSERT_TRUE(Upload(kSubmitterToken, 1.1e-3).ok());
  ExpectExhaustedNaming(Upload(kSubmitterToken, 1.2e-3), "--max-uploads-per-minute");
  EXPECT_EQ(Sql("SELECT count(*) FROM run WHERE uploaded_by = 'ci' AND $1 > 0", 1), "2");
  grpc::Status s = Upload(kOtherSubmitterToken, 1.2e-3);
  EXPECT_TRUE(s.ok()) << s.error_message();
}

TEST_F(PrincipalLimitsRpcTest, APrincipalCreatesAtMostItsSchedulesOthersStillCreate) {
  ASSERT_TRUE(CreateSchedule(kSubmitterToken, "ci-1", "0 2 * * *").ok());
  ExpectExhaustedNaming(CreateSchedule(kSubmitterToken, "ci-2", "0 2 * * *"),
                        "--max-schedules-per-principal");
  EXPECT_EQ(Sql("SELECT count(*) FROM schedule WHERE $1 > 0", 1), "1");
  grpc::Status s = CreateSchedule(kOtherSubmitterToken, "bob-1", "0 2 * * *");
  EXPECT_TRUE(s.ok()) << s.error_message();
}

TEST_F(PrincipalLimitsRpcTest, ACronFiringMoreOftenThanTheLimitIsRefused) {
  ExpectExhaustedNaming(CreateSchedule(kSubmitterToken, "often", "*/5 * * * *"),
                        "--min-schedule-interval-seconds");
  // Two fires a minute apart once a day are as refused as every five minutes.
  ExpectExhaustedNaming(CreateSchedule(kSubmitterToken, "pair", "0,1 2 * * *"),
                        "--min-schedule-interval-seconds");
  EXPECT_EQ(Sql("SELECT count(*) FROM schedule WHERE $1 > 0", 1), "0");
  ASSERT_TRUE(CreateSchedule(kSubmitterToken, "hourly", "0 * * * *").ok());
  v1::UpdateScheduleRequest update;
  update.mutable_schedule()->set_name("hourly");
  update.mutable_schedule()->set_cron("*/30 * * * *");
  update.mutable_update_mask()->add_paths("cron");
  v1::Schedule updated;
  ExpectExhaustedNaming(
      Schedules()->UpdateSchedule(Context(kSubmitterToken).get(), update, &updated),
      "--min-schedule-interval-seconds");
}

// Streams per client connection (--max-streams-per-connection, HTTP/2's
// SETTINGS_MAX_CONCURRENT_STREAMS): one connection holding its streams open gets no further call
// served on it, while another connection is served at once.
class ConnectionStreamsRpcTest : public ResultRpcTest {
 protected:
  void Configure(server::ServerConfig& config) override { config.max_streams_per_connection = 2; }
  // A channel with a connection of its own (gRPC shares connections between channels to one
  // address unless told otherwise).
  std::shared_ptr<grpc::Channel> OwnConnection() const {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    return grpc::CreateCustomChannel(Address(), grpc::InsecureChannelCredentials(), args);
  }
  static grpc::Status GetJob(v1::JobService::Stub& stub, int64_t job_id,
                             std::chrono::milliseconds deadline) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", std::string("Bearer ") + kReaderToken);
    context.set_deadline(std::chrono::system_clock::now() + deadline);
    v1::GetJobRequest request;
    request.set_job_id(job_id);
    v1::Job job;
    return stub.GetJob(&context, request, &job);
  }
};

TEST_F(ConnectionStreamsRpcTest, AConnectionCarriesAtMostItsStreamsOthersAreServed) {
  const v1::Job job = Submit();  // stays QUEUED: its watch streams stay open
  auto mine = v1::JobService::NewStub(OwnConnection());
  ASSERT_TRUE(GetJob(*mine, job.id(), std::chrono::seconds(10)).ok());  // connected
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<grpc::ClientReader<v1::JobEvent>>> streams;
  for (int i = 0; i < 2; ++i) {
    contexts.push_back(Context(kReaderToken));
    contexts.back()->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    v1::GetJobRequest request;
    request.set_job_id(job.id());
    streams.push_back(mine->WatchJob(contexts.back().get(), request));
    v1::JobEvent event;
    ASSERT_TRUE(streams.back()->Read(&event)) << "watch " << i;
  }
  const grpc::Status third = GetJob(*mine, job.id(), std::chrono::milliseconds(1500));
  EXPECT_TRUE(third.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ||
              third.error_code() == grpc::StatusCode::UNAVAILABLE)
      << third.error_code() << " " << third.error_message();
  auto other = v1::JobService::NewStub(OwnConnection());
  const grpc::Status elsewhere = GetJob(*other, job.id(), std::chrono::seconds(10));
  EXPECT_TRUE(elsewhere.ok()) << elsewhere.error_message();
  // A stream that ends gives its slot back to the connection.
  contexts.front()->TryCancel();
  streams.front()->Finish();
  const grpc::Status after = GetJob(*mine, job.id(), std::chrono::seconds(10));
  EXPECT_TRUE(after.ok()) << after.error_message();
  contexts.back()->TryCancel();
  streams.back()->Finish();
}

}  // namespace
}  // namespace warpwatch::testing
