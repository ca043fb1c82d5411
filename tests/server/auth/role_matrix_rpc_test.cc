// File: tests/server/auth/role_matrix_rpc_test.cc
// Every RPC of the API, taken from the generated descriptors (so a method added to the protos is
// in the matrix without anyone listing it), called with no token and with each role's token over
// a real channel. Expected access is written here from the roles' contract (server/auth/role.h),
// independently of the server's own table: a method missing from kExpected fails the test.
// An allowed call gets past authorization (its own answer to an empty request: OK,
// INVALID_ARGUMENT, NOT_FOUND ...); a refused one PERMISSION_DENIED; no token UNAUTHENTICATED.
#include <google/protobuf/descriptor.h>
#include <grpcpp/generic/generic_stub.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/server/runtime/rpc_test_fixture.h"
#include "warpwatch/v1/fleet.grpc.pb.h"
#include "warpwatch/v1/incident.grpc.pb.h"
#include "warpwatch/v1/job.grpc.pb.h"
#include "warpwatch/v1/result.grpc.pb.h"
#include "warpwatch/v1/schedule.grpc.pb.h"
#include "warpwatch/v1/worker.grpc.pb.h"

namespace warpwatch::testing {
namespace {

enum Who { kNone, kReaderRole, kSubmitterRole, kWorkerRole, kAdminRole };

const std::map<Who, std::string> kTokens = {{kReaderRole, "matrix-reader-000001"},
                                            {kSubmitterRole, "matrix-submitter-001"},
                                            {kWorkerRole, "matrix-worker-000001"},
                                            {kAdminRole, "matrix-admin-0000001"}};

// Roles allowed to call each method (admin may call everything and is not listed).
const std::set<Who> kRead = {kReaderRole, kSubmitterRole};
const std::set<Who> kSubmit = {kSubmitterRole};
const std::set<Who> kWork = {kWorkerRole};
const std::set<Who> kAdminOnly = {};
const std::map<std::string, std::set<Who>> kExpected = {
    {"/warpwatch.v1.JobService/GetJob", kRead},
    {"/warpwatch.v1.JobService/ListJobs", kRead},
    {"/warpwatch.v1.JobService/WatchJob", kRead},
    {"/warpwatch.v1.JobService/SubmitJob", kSubmit},
    {"/warpwatch.v1.JobService/CancelJob", kSubmit},
    {"/warpwatch.v1.ResultService/ListRuns", kRead},
    {"/warpwatch.v1.ResultService/QueryMeasurements", kRead},
    {"/warpwatch.v1.ResultService/GetSeries", kRead},
    {"/warpwatch.v1.ResultService/CompareRuns", kRead},
    {"/warpwatch.v1.ResultService/ListRegressions", kRead},
    {"/warpwatch.v1.ResultService/UpdateRegression", kSubmit},
    {"/warpwatch.v1.ResultService/UploadRun", kSubmit},
    {"/warpwatch.v1.ResultService/ListBaselines", kRead},
    {"/warpwatch.v1.ResultService/PinBaseline", kSubmit},
    {"/warpwatch.v1.ResultService/UnpinBaseline", kSubmit},
    {"/warpwatch.v1.WorkerService/Register", kWork},
    {"/warpwatch.v1.WorkerService/Heartbeat", kWork},
    {"/warpwatch.v1.WorkerService/AcquireJob", kWork},
    {"/warpwatch.v1.WorkerService/ReportProgress", kWork},
    {"/warpwatch.v1.WorkerService/UploadMeasurements", kWork},
    {"/warpwatch.v1.WorkerService/FinishJob", kWork},
    {"/warpwatch.v1.FleetService/ListWorkers", kRead},
    {"/warpwatch.v1.FleetService/GetGpuHealth", kRead},
    {"/warpwatch.v1.FleetService/ListGpuHealth", kRead},
    {"/warpwatch.v1.FleetService/MarkGpuHealth", kAdminOnly},
    {"/warpwatch.v1.ScheduleService/GetSchedule", kRead},
    {"/warpwatch.v1.ScheduleService/ListSchedules", kRead},
    {"/warpwatch.v1.ScheduleService/ListScheduleRuns", kRead},
    {"/warpwatch.v1.ScheduleService/CreateSchedule", kSubmit},
    {"/warpwatch.v1.ScheduleService/UpdateSchedule", kSubmit},
    {"/warpwatch.v1.ScheduleService/DeleteSchedule", kSubmit},
    {"/warpwatch.v1.ScheduleService/TriggerSchedule", kSubmit},
    {"/warpwatch.v1.IncidentService/ListIncidents", kRead},
    {"/warpwatch.v1.IncidentService/GetIncident", kRead},
    {"/warpwatch.v1.IncidentService/ExplainFinding", kRead},
    {"/warpwatch.v1.IncidentService/UpdateIncident", kSubmit},
};

// Full paths of every method of every service in the warpwatch.v1 protos.
std::vector<std::string> ApiMethods() {
  std::vector<std::string> methods;
  const auto* pool = google::protobuf::DescriptorPool::generated_pool();
  for (const char* file :
       {"warpwatch/v1/job.proto", "warpwatch/v1/result.proto", "warpwatch/v1/worker.proto",
        "warpwatch/v1/fleet.proto", "warpwatch/v1/schedule.proto", "warpwatch/v1/incident.proto"}) {
    const google::protobuf::FileDescriptor* f = pool->FindFileByName(file);
    EXPECT_NE(f, nullptr) << file;
    if (f == nullptr) continue;
    for (int s = 0; s < f->service_count(); ++s) {
      const google::protobuf::ServiceDescriptor* service = f->service(s);
      for (int m = 0; m < service->method_count(); ++m) {
        methods.push_back("/" + service->full_name() + "/" + service->method(m)->name());
      }
    }
  }
  return methods;
}

class RoleMatrixRpcTest : public RpcTest {
 protected:
  void SetUp() override {
    RpcTest::SetUp();
    server::ServerConfig config = TestConfig();
    config.tokens_file = dir_.Write(
        "tokens", kTokens.at(kReaderRole) + " reader dash\n" + kTokens.at(kSubmitterRole) +
                      " submitter ci\n" + kTokens.at(kWorkerRole) + " worker node1\n" +
                      kTokens.at(kAdminRole) + " admin ops\n");
    StartServer(config);
  }

  // Calls `method` with an empty request message through the generic stub (one request, then
  // reads until the server ends the call, whatever the method's streaming kind).
  grpc::StatusCode Call(const std::string& method, Who who) {
    grpc::GenericStub stub(Channel());
    std::unique_ptr<grpc::ClientContext> context =
        Context(who == kNone ? std::string() : kTokens.at(who));
    context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    grpc::CompletionQueue cq;
    auto wait = [&cq]() {
      void* tag = nullptr;
      bool ok = false;
      EXPECT_TRUE(cq.Next(&tag, &ok));
      return ok;
    };
    std::unique_ptr<grpc::GenericClientAsyncReaderWriter> call =
        stub.PrepareCall(context.get(), method, &cq);
    call->StartCall(reinterpret_cast<void*>(1));
    if (wait()) {
      grpc::ByteBuffer empty;
      grpc::Slice nothing;
      empty = grpc::ByteBuffer(&nothing, 1);
      call->Write(empty, reinterpret_cast<void*>(2));
      if (wait()) {
        call->WritesDone(reinterpret_cast<void*>(3));
        wait();
      }
    }
    grpc::ByteBuffer response;
    do {
      call->Read(&response, reinterpret_cast<void*>(4));
    } while (wait());
    grpc::Status status;
    call->Finish(&status, reinterpret_cast<void*>(5));
    wait();
    return status.error_code();
  }

  TempDir dir_;
};

TEST_F(RoleMatrixRpcTest, EveryApiMethodHasAnExpectedAccess) {
  const std::vector<std::string> methods = ApiMethods();
  EXPECT_EQ(methods.size(), kExpected.size());
  for (const std::string& m : methods) EXPECT_EQ(kExpected.count(m), 1u) << m;
}

TEST_F(RoleMatrixRpcTest, EveryMethodWithoutATokenIsUnauthenticated) {
  for (const std::string& m : ApiMethods()) {
    EXPECT_EQ(Call(m, kNone), grpc::StatusCode::UNAUTHENTICATED) << m;
  }
}

TEST_F(RoleMatrixRpcTest, EveryMethodWithEveryRoleIsAllowedOrDeniedAsTheRolesSay) {
  for (const std::string& m : ApiMethods()) {
    auto expected = kExpected.find(m);
    if (expected == kExpected.end()) continue;  // reported by EveryApiMethodHasAnExpectedAccess
    for (Who who : {kReaderRole, kSubmitterRole, kWorkerRole, kAdminRole}) {
      const grpc::StatusCode code = Call(m, who);
      const bool allowed = who == kAdminRole || expected->second.count(who) > 0;
      if (allowed) {
        EXPECT_NE(code, grpc::StatusCode::PERMISSION_DENIED) << m << " as " << kTokens.at(who);
        EXPECT_NE(code, grpc::StatusCode::UNAUTHENTICATED) << m << " as " << kTokens.at(who);
        EXPECT_NE(code, grpc::StatusCode::UNAVAILABLE) << m << " as " << kTokens.at(who);
        EXPECT_NE(code, grpc::StatusCode::DEADLINE_EXCEEDED) << m << " as " << kTokens.at(who);
      } else {
        EXPECT_EQ(code, grpc::StatusCode::PERMISSION_DENIED) << m << " as " << kTokens.at(who);
      }
    }
  }
}

}  // namespace
}  // namespace warpwatch::testing
