// File: tests/server/service/result_rpc_test_util.h
// ResultService RPC tests' fixture: an in-process server with a tokens file (reader "dash",
// submitters "ci" and "bob", worker "node1", admin "ops"), runs made through the real
// WorkerService, and regression rows written as the detector writes them.
#ifndef WARPWATCH_TESTS_SERVER_SERVICE_RESULT_RPC_TEST_UTIL_H_
#define WARPWATCH_TESTS_SERVER_SERVICE_RESULT_RPC_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "tests/server/service/worker_rpc_test_util.h"
#include "warpwatch/v1/result.grpc.pb.h"

namespace warpwatch::testing {

inline constexpr const char* kReaderToken = "reader-token-0000001";
inline constexpr const char* kSubmitterToken = "submitter-token-0001";
inline constexpr const char* kWorkerToken = "worker-token-0000001";
// A second submitter ("bob") and an admin ("ops"): scoped roles (issue 23) need two credentials.
inline constexpr const char* kOtherSubmitterToken = "submitter-token-0002";
inline constexpr const char* kAdminToken = "admin-token-00000001";
inline constexpr const char* kModel = "NVIDIA H100 80GB HBM3";

// Case "reduce/<variant>?n=1024" with median `median` s at `clock_mhz`, five samples around it.
inline v1::Measurement ResultPoint(const std::string& variant, double median,
                                   double clock_mhz = 1980) {
  v1::Measurement m;
  m.mutable_case_()->set_family("reduce");
  m.mutable_case_()->set_variant(variant);
  (*m.mutable_case_()->mutable_params())["n"] = 1024;
  m.mutable_case_()->set_canonical("reduce/" + variant + "?n=1024");
  m.set_status(v1::POINT_STATUS_OK);
  m.set_verified(true);
  m.mutable_stats()->set_median(median);
  m.set_median_sm_clock_mhz(clock_mhz);
  for (double f : {0.998, 0.999, 1.0, 1.001, 1.002}) {
    m.add_samples_seconds(median * f);
    m.add_sample_sm_clock_mhz(clock_mhz);
  }
  m.mutable_occupancy()->set_theoretical(0.5);
  m.mutable_occupancy()->set_achieved(0.45);
  return m;
}

class ResultRpcTest : public WorkerRpcTest {
 protected:
  void SetUp() override {
    WorkerRpcTest::SetUp();
    if (HasFatalFailure()) return;
    server::ServerConfig config = ResultConfig();
    Configure(config);
    StartServer(config);
    token_ = kWorkerToken;
    user_token_ = kSubmitterToken;
  }

  // TestConfig() with the tokens file; a fixture may add settings.
  virtual server::ServerConfig ResultConfig() const {
    server::ServerConfig config = TestConfig();
    config.tokens_file = dir_.Write(
        "tokens", std::string(kReaderToken) + " reader dash\n" + kSubmitterToken +
                      " submitter ci\n" + kOtherSubmitterToken + " submitter bob\n" +
                      kWorkerToken + " worker node1\n" + kAdminToken + " admin ops\n");
    return config;
  }

  // Called with the test's config before the server starts: a test's own limits.
  virtual void Configure(server::ServerConfig& /*config*/) {}

  std::unique_ptr<v1::ResultService::Stub> Results() const {
    return v1::ResultService::NewStub(Channel());
  }

  // A SUCCEEDED run on GPU-1 (an H100) holding `points`; returns its id (0 on failure).
  int64_t MakeRun(const std::vector<v1::Measurement>& points) {
    if (worker_.empty()) worker_ = Register("node-1", {MakeGpu("GPU-1", kModel)}).worker_id();
    v1::Job job = Submit();
    v1::AcquireJobResponse lease = Acquire(worker_, "GPU-1", 5);
    EXPECT_TRUE(lease.has_job());
    if (!lease.has_job()) return 0;
    v1::UploadMeasurementsRequest request;
    request.set_worker_id(worker_);
    request.set_run_id(lease.run_id());
    *request.mutable_environment()->mutable_device() = MakeGpu("GPU-1", kModel);
    request.mutable_environment()->set_hostname("node-1");
    for (const v1::Measurement& m : points) *request.add_measurements() = m;
    v1::UploadMeasurementsResponse uploaded;
    grpc::Status status =
        WorkerStub()->UploadMeasurements(Context(token_).get(), request, &uploaded);
    EXPECT_TRUE(status.ok()) << status.error_message();
    v1::Job finished;
    status = Finish(worker_, lease.job().id(), lease.run_id(), v1::JOB_OUTCOME_SUCCEEDED,
                    &finished);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return lease.run_id();
  }

  // A regression of case reduce/<variant>?n=1024 as the detector writes it; returns its id.
  int64_t InsertRegression(int64_t run_id, const std::string& state,
                           const std::string& variant = "tree") {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    const int64_t id =
        tx.exec_params1(
              "INSERT INTO regression (series_id, case_canonical, family, variant, gpu_model,"
              " run_id, baseline_median_seconds, new_median_seconds, change, method, state)"
              " VALUES ($1, $5, 'reduce', $6, $2, $3, 1e-3, 1.1e-3, 0.1, 'robust_z', $4)"
              " RETURNING id",
              "reduce/" + variant + "?n=1024@" + kModel, kModel, run_id, state,
              "reduce/" + variant + "?n=1024", variant)[0]
            .as<int64_t>();
    tx.commit();
    return id;
  }

  // The first column of the first row of `sql` with one bigint parameter.
  std::string Sql(const std::string& sql, int64_t param) {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    pqxx::result r = tx.exec_params(sql, param);
    return r.empty() || r[0][0].is_null() ? "" : r[0][0].as<std::string>();
  }

  TempDir dir_;
  std::string worker_;
};

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_SERVER_SERVICE_RESULT_RPC_TEST_UTIL_H_
