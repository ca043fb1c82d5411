// File: tests/server/validation/request_validation_rpc_test.cc
// Every validation rule of the JobService edge, over a real channel: INVALID_ARGUMENT whose
// message names the offending field. One server (max_sweep_points 50) serves the whole suite.
#include <grpcpp/create_channel.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "server/validation/job_spec_validator.h"
#include "tests/server/runtime/rpc_test_fixture.h"
#include "warpwatch/v1/worker.pb.h"

namespace warpwatch::testing {
namespace {

class RequestValidationRpcTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    StatusOr<std::string> url = FreshDatabaseUrl();
    ASSERT_TRUE(url.ok()) << url.status().ToString();
    server::ServerConfig config;
    config.listen = "127.0.0.1:0";
    config.metrics_listen = "";
    config.database_url = *url;
    config.pool_size = 2;
    config.max_sweep_points = 50;
    auto runtime = server::ServerRuntime::Start(config);
    ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
    runtime_ = runtime->release();
    stub_ =
        v1::JobService::NewStub(grpc::CreateChannel("127.0.0.1:" + std::to_string(runtime_->port()),
                                                    grpc::InsecureChannelCredentials()))
            .release();
  }
  static void TearDownTestSuite() {
    delete stub_;
    delete runtime_;
  }

  static grpc::Status Submit(const v1::JobSpec& spec) {
    v1::SubmitJobRequest request;
    *request.mutable_spec() = spec;
    v1::Job job;
    return stub_->SubmitJob(RpcTest::Context().get(), request, &job);
  }

  // Asserts INVALID_ARGUMENT with `field` in the message.
  static void ExpectInvalid(const grpc::Status& status, const std::string& field) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
    EXPECT_NE(status.error_message().find(field), std::string::npos)
        << "message \"" << status.error_message() << "\" does not name " << field;
  }

  static v1::JobSpec Spec() { return RpcTest::ValidSpec(); }

  static v1::JobSpec WithBlockSize(int64_t block_size) {
    v1::JobSpec spec;
    spec.add_families("memory.alignment");
    v1::AxisOverride* axis = spec.add_axes();
    axis->set_axis("block_size");
    axis->add_values(256);
    axis->add_values(block_size);
    return spec;
  }

  static server::ServerRuntime* runtime_;
  static v1::JobService::Stub* stub_;
};

server::ServerRuntime* RequestValidationRpcTest::runtime_ = nullptr;
v1::JobService::Stub* RequestValidationRpcTest::stub_ = nullptr;

TEST_F(RequestValidationRpcTest, AValidSpecIsAccepted) {
  grpc::Status status = Submit(Spec());
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(RequestValidationRpcTest, EmptyFamiliesAreRefused) {
  v1::JobSpec spec = Spec();
  spec.clear_families();
  ExpectInvalid(Submit(spec), "spec.families");
}

TEST_F(RequestValidationRpcTest, AnUnknownFamilyIsRefusedByIndex) {
  v1::JobSpec spec = Spec();
  spec.add_families("no_such_family");
  ExpectInvalid(Submit(spec), "spec.families[1]");
}

TEST_F(RequestValidationRpcTest, AnUnknownVariantIsRefused) {
  v1::JobSpec spec = Spec();
  spec.clear_variants();
  spec.add_variants("no_such_variant");
  ExpectInvalid(Submit(spec), "spec.variants[0]");
}

TEST_F(RequestValidationRpcTest, AnAxisTheFamilyLacksIsRefused) {
  v1::JobSpec spec = Spec();
  v1::AxisOverride* axis = spec.add_axes();
  axis->set_axis("no_such_axis");
  axis->add_values(1);
  ExpectInvalid(Submit(spec), "spec.axes[0].axis");
}

TEST_F(RequestValidationRpcTest, BlockSizeZeroIsRefused) {
  ExpectInvalid(Submit(WithBlockSize(0)), "spec.axes[0].values[1]");
}

TEST_F(RequestValidationRpcTest, BlockSizeAbove1024IsRefused) {
  ExpectInvalid(Submit(WithBlockSize(2048)), "spec.axes[0].values[1]");
}

TEST_F(RequestValidationRpcTest, BlockSizeNotAMultipleOf32IsRefused) {
  grpc::Status status = Submit(WithBlockSize(1000));
  ExpectInvalid(status, "spec.axes[0].values[1]");
  EXPECT_NE(status.error_message().find("multiple of 32"), std::string::npos);
}

TEST_F(RequestValidationRpcTest, ASweepAboveMaxSweepPointsIsRefused) {
  v1::JobSpec spec = Spec();
  v1::AxisOverride* axis = spec.add_axes();
  axis->set_axis("n");
  for (int i = 1; i <= 51; ++i) axis->add_values(i * 1024);
  grpc::Status status = Submit(spec);
  ExpectInvalid(status, "spec");
  EXPECT_NE(status.error_message().find("51 points"), std::string::npos) << status.error_message();
}

TEST_F(RequestValidationRpcTest, TargetNoiseAboveHalfIsRefused) {
  v1::JobSpec spec = Spec();
  spec.mutable_measurement()->set_target_noise(0.6);
  ExpectInvalid(Submit(spec), "spec.measurement.target_noise");
}

TEST_F(RequestValidationRpcTest, NegativeTargetNoiseIsRefused) {
  v1::JobSpec spec = Spec();
  spec.mutable_measurement()->set_target_noise(-0.01);
  ExpectInvalid(Submit(spec), "spec.measurement.target_noise");
}

TEST_F(RequestValidationRpcTest, PointTimeoutAboveAnHourIsRefused) {
  v1::JobSpec spec = Spec();
  spec.mutable_measurement()->set_point_timeout_seconds(3601);
  ExpectInvalid(Submit(spec), "spec.measurement.point_timeout_seconds");
}

TEST_F(RequestValidationRpcTest, NegativePointTimeoutIsRefused) {
  v1::JobSpec spec = Spec();
  spec.mutable_measurement()->set_point_timeout_seconds(-1);
  ExpectInvalid(Submit(spec), "spec.measurement.point_timeout_seconds");
}

TEST_F(RequestValidationRpcTest, MinGpuTimeAboveAMinuteIsRefused) {
  v1::JobSpec spec = Spec();
  spec.mutable_measurement()->set_min_gpu_time_seconds(61);
  ExpectInvalid(Submit(spec), "spec.measurement.min_gpu_time_seconds");
}

TEST_F(RequestValidationRpcTest, MinSamplesAboveMaxSamplesIsRefused) {
  v1::JobSpec spec = Spec();
  spec.mutable_measurement()->set_min_samples(200);
  spec.mutable_measurement()->set_max_samples(100);
  ExpectInvalid(Submit(spec), "spec.measurement.min_samples");
}

// The worker raises its default max_samples (2000) to min_samples when max_samples is unset, so
// such a job is valid; with max_samples set below min_samples it is not.
TEST_F(RequestValidationRpcTest, MinSamplesAboveTheDefaultMaximumAreAcceptedWhenMaxIsUnset) {
  v1::JobSpec spec = Spec();
  spec.mutable_measurement()->set_min_samples(5000);
  const grpc::Status accepted = Submit(spec);
  EXPECT_TRUE(accepted.ok()) << accepted.error_message();
  spec.mutable_measurement()->set_max_samples(4999);
  ExpectInvalid(Submit(spec), "spec.measurement.min_samples");
}

TEST_F(RequestValidationRpcTest, MaxSamplesWhoseMeasurementCannotFitOneUploadAreRefused) {
  // The server's default --max-upload-bytes is 3 MiB; 200000 samples need about 6 MB.
  v1::JobSpec spec = Spec();
  spec.mutable_measurement()->set_max_samples(200000);
  grpc::Status status = Submit(spec);
  ExpectInvalid(status, "spec.measurement.max_samples");
  EXPECT_NE(status.error_message().find("--max-upload-bytes"), std::string::npos)
      << status.error_message();
  const int64_t fits = server::validation::MaxSamplesForUpload(3 << 20);
  spec.mutable_measurement()->set_max_samples(static_cast<int32_t>(fits) + 1);
  ExpectInvalid(Submit(spec), "spec.measurement.max_samples");
  spec.mutable_measurement()->set_max_samples(static_cast<int32_t>(fits));
  EXPECT_TRUE(Submit(spec).ok());
}

TEST(MaxSamplesForUploadTest, AMeasurementWithThatManySamplesFitsOneUpload) {
  const int64_t limit = 3 << 20;
  const int64_t fits = server::validation::MaxSamplesForUpload(limit);
  ASSERT_GT(fits, 50000);
  v1::UploadMeasurementsRequest request;
  request.set_worker_id("5b0e9a4c-0000-0000-0000-000000000000");
  request.set_run_id(int64_t{1} << 40);
  v1::Measurement* m = request.add_measurements();
  m->mutable_case_()->set_canonical("memory.copy/coalesced?block_size=1024&n=268435456");
  for (int64_t i = 0; i < fits; ++i) {
    m->add_samples_seconds(1e-3 + static_cast<double>(i));
    m->add_sample_sm_clock_mhz(1980.5);
    m->add_sample_throttled(true);
    m->add_sample_kernel_seconds(9e-4);
    m->add_sample_group(static_cast<int32_t>(i));  // worst case: every sample its own group
  }
  // What is left for the rest of the measurement is the overhead the validator reserves.
  EXPECT_LE(static_cast<int64_t>(request.ByteSizeLong()),
            limit - server::validation::kMeasurementOverheadBytes + 1024);
}

TEST_F(RequestValidationRpcTest, NegativeMinSamplesIsRefused) {
  v1::JobSpec spec = Spec();
  spec.mutable_measurement()->set_min_samples(-1);
  ExpectInvalid(Submit(spec), "spec.measurement.min_samples");
}

TEST_F(RequestValidationRpcTest, PriorityAbove100IsRefused) {
  v1::JobSpec spec = Spec();
  spec.set_priority(101);
  ExpectInvalid(Submit(spec), "spec.priority");
}

TEST_F(RequestValidationRpcTest, PriorityBelowMinus100IsRefused) {
  v1::JobSpec spec = Spec();
  spec.set_priority(-101);
  ExpectInvalid(Submit(spec), "spec.priority");
}

TEST_F(RequestValidationRpcTest, MaxAttemptsAbove100IsRefused) {
  v1::JobSpec spec = Spec();
  spec.set_max_attempts(101);
  ExpectInvalid(Submit(spec), "spec.max_attempts");
}

TEST_F(RequestValidationRpcTest, NegativeJobTimeoutIsRefused) {
  v1::JobSpec spec = Spec();
  spec.set_timeout_seconds(-5);
  ExpectInvalid(Submit(spec), "spec.timeout_seconds");
}

TEST_F(RequestValidationRpcTest, TooManyLabelsAreRefused) {
  v1::JobSpec spec = Spec();
  for (int i = 0; i < 33; ++i) (*spec.mutable_labels())["k" + std::to_string(i)] = "v";
  ExpectInvalid(Submit(spec), "spec.labels");
}

TEST_F(RequestValidationRpcTest, ALabelKeyWithBadSyntaxIsRefused) {
  v1::JobSpec spec = Spec();
  (*spec.mutable_labels())["git sha"] = "abc";
  ExpectInvalid(Submit(spec), "spec.labels");
}

TEST_F(RequestValidationRpcTest, ALabelKeyTooLongIsRefused) {
  v1::JobSpec spec = Spec();
  (*spec.mutable_labels())[std::string(64, 'k')] = "v";
  ExpectInvalid(Submit(spec), "spec.labels");
}

TEST_F(RequestValidationRpcTest, ALabelValueTooLongIsRefused) {
  v1::JobSpec spec = Spec();
  (*spec.mutable_labels())["git_sha"] = std::string(257, 'v');
  ExpectInvalid(Submit(spec), "spec.labels[git_sha]");
}

TEST_F(RequestValidationRpcTest, AWorkerLabelWithBadSyntaxIsRefused) {
  v1::JobSpec spec = Spec();
  (*spec.mutable_selector()->mutable_worker_labels())["9rack"] = "a";
  ExpectInvalid(Submit(spec), "spec.selector.worker_labels");
}

TEST_F(RequestValidationRpcTest, AnOversizeGpuModelIsRefused) {
  v1::JobSpec spec = Spec();
  spec.mutable_selector()->set_gpu_model(std::string(300, 'H'));
  ExpectInvalid(Submit(spec), "spec.selector.gpu_model");
}

TEST_F(RequestValidationRpcTest, ListJobsPageSizeAbove1000IsClampedNotRefused) {
  // AIP-158, one policy for every List method (server/store/paging.h).
  v1::ListJobsRequest request;
  request.set_page_size(1001);
  v1::ListJobsResponse response;
  grpc::Status status = stub_->ListJobs(RpcTest::Context().get(), request, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(RequestValidationRpcTest, ARequestIdThatIsTooLongOrHasSpacesIsRefused) {
  v1::SubmitJobRequest request;
  *request.mutable_spec() = Spec();
  request.set_request_id(std::string(65, 'x'));
  v1::Job job;
  ExpectInvalid(stub_->SubmitJob(RpcTest::Context().get(), request, &job), "request_id");
  request.set_request_id("two words");
  ExpectInvalid(stub_->SubmitJob(RpcTest::Context().get(), request, &job), "request_id");
}

TEST_F(RequestValidationRpcTest, ListJobsNegativePageSizeIsRefused) {
  v1::ListJobsRequest request;
  request.set_page_size(-1);
  v1::ListJobsResponse response;
  ExpectInvalid(stub_->ListJobs(RpcTest::Context().get(), request, &response), "page_size");
}

TEST_F(RequestValidationRpcTest, ListJobsUnspecifiedStateIsRefused) {
  v1::ListJobsRequest request;
  request.add_states(v1::JOB_STATE_QUEUED);
  request.add_states(v1::JOB_STATE_UNSPECIFIED);
  v1::ListJobsResponse response;
  ExpectInvalid(stub_->ListJobs(RpcTest::Context().get(), request, &response), "states[1]");
}

TEST_F(RequestValidationRpcTest, ListJobsBadLabelKeyIsRefused) {
  v1::ListJobsRequest request;
  (*request.mutable_labels())["bad key"] = "v";
  v1::ListJobsResponse response;
  ExpectInvalid(stub_->ListJobs(RpcTest::Context().get(), request, &response), "labels");
}

TEST_F(RequestValidationRpcTest, GetJobZeroIdIsRefused) {
  v1::GetJobRequest request;
  v1::Job job;
  ExpectInvalid(stub_->GetJob(RpcTest::Context().get(), request, &job), "job_id");
}

TEST_F(RequestValidationRpcTest, CancelJobNegativeIdIsRefused) {
  v1::CancelJobRequest request;
  request.set_job_id(-3);
  v1::Job job;
  ExpectInvalid(stub_->CancelJob(RpcTest::Context().get(), request, &job), "job_id");
}

TEST_F(RequestValidationRpcTest, CancelJobOversizeReasonIsRefused) {
  v1::CancelJobRequest request;
  request.set_job_id(1);
  request.set_reason(std::string(1025, 'r'));
  v1::Job job;
  ExpectInvalid(stub_->CancelJob(RpcTest::Context().get(), request, &job), "reason");
}

TEST_F(RequestValidationRpcTest, WatchJobZeroIdIsRefused) {
  v1::GetJobRequest request;
  auto context = RpcTest::Context();
  auto reader = stub_->WatchJob(context.get(), request);
  v1::JobEvent event;
  EXPECT_FALSE(reader->Read(&event));
  ExpectInvalid(reader->Finish(), "job_id");
}

}  // namespace
}  // namespace warpwatch::testing
