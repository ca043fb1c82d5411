// File: bench/detail/load_references.cc
#include "bench/detail/load_references.h"

#include <cstdio>
#include <future>
#include <vector>

namespace warpwatch::bench {

double MsSince(LoadClock::time_point start) {
  return std::chrono::duration<double, std::milli>(LoadClock::now() - start).count();
}

const char* Goal(bool met) { return met ? "met" : "MISSED"; }

v1::JobSpec BenchSpec(const std::string& device_uuid) {
  v1::JobSpec spec;
  spec.add_families("memory.coalescing");
  spec.mutable_selector()->set_gpu_uuid(device_uuid);
  spec.set_max_attempts(1);
  return spec;
}

Status Submit(v1::JobService::Stub& jobs, const std::string& token, const v1::JobSpec& spec,
              v1::Job* job) {
  grpc::ClientContext context;
  ServerUnderTest::Authorize(context, token);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  v1::SubmitJobRequest request;
  *request.mutable_spec() = spec;
  const grpc::Status s = jobs.SubmitJob(&context, request, job);
  if (s.ok()) return OkStatus();
  return Status(static_cast<StatusCode>(static_cast<int>(s.error_code())),
                "SubmitJob: " + s.error_message());
}

UnaryReference::UnaryReference(const ServerUnderTest& server, std::string token)
    : stub_(server.NewChannel()), token_(std::move(token)) {}

double UnaryReference::CallMs() {
  grpc::ClientContext context;
  ServerUnderTest::Authorize(context, token_);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  grpc::Slice nothing;                    // HealthCheckRequest{service: ""} serializes to nothing
  grpc::ByteBuffer request(&nothing, 1);  // a default ByteBuffer is no message at all
  grpc::ByteBuffer response;
  std::promise<grpc::Status> done;
  const auto start = LoadClock::now();
  stub_.UnaryCall(&context, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request,
                  &response, [&done](grpc::Status s) { done.set_value(std::move(s)); });
  const grpc::Status status = done.get_future().get();
  const double ms = MsSince(start);
  return status.ok() ? ms : -1;
}

StatusOr<References> MeasureReferences(ServerUnderTest& server, UnaryReference& unary,
                                       int calls) {
  std::vector<double> u, d;
  for (int i = 0; i < calls; ++i) {
    const double ms = unary.CallMs();
    if (ms < 0) return InternalError("health check failed");
    u.push_back(ms);
    ASSIGN_OR_RETURN(const double db, server.DatabaseRoundTripMs());
    d.push_back(db);
  }
  return References{Summarize(u), Summarize(d)};
}

void PrintReferences(const References& r) {
  std::printf("references: gRPC unary (health Check) p50 %.3f p99 %.3f ms; PostgreSQL SELECT 1"
              " p50 %.3f p99 %.3f ms\n",
              r.unary.p50_ms, r.unary.p99_ms, r.database.p50_ms, r.database.p99_ms);
}

}  // namespace warpwatch::bench
