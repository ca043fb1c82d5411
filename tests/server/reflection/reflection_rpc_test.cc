// File: tests/server/reflection/reflection_rpc_test.cc
// Server reflection is on, so grpcurl and other tools work without our .proto files. Debian ships
// no reflection .proto, so the call is made with gRPC's generic stub on hand-encoded messages:
// ServerReflectionRequest{list_services: "*"} is field 7 (length-delimited) = 0x3a 0x01 '*', and
// the names of the listed services appear verbatim in the response bytes.
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/support/byte_buffer.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

constexpr char kReflectionMethod[] =
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";

void* Tag(intptr_t i) { return reinterpret_cast<void*>(i); }

// Waits for the next event of `cq`, which must be `tag`; returns its ok flag.
bool Await(grpc::CompletionQueue& cq, void* tag) {
  void* got = nullptr;
  bool ok = false;
  if (!cq.Next(&got, &ok)) return false;
  EXPECT_EQ(got, tag);
  return ok;
}

class ReflectionRpcTest : public RpcTest {
 protected:
  // The raw bytes of the reflection service's answer to list_services, or "" on any failure.
  std::string ListServicesResponse() {
    grpc::CompletionQueue cq;
    grpc::GenericStub stub(Channel());
    std::unique_ptr<grpc::ClientContext> context = Context();
    context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    auto call = stub.PrepareCall(context.get(), kReflectionMethod, &cq);
    call->StartCall(Tag(1));
    if (!Await(cq, Tag(1))) return "";
    grpc::Slice request_slice(std::string("\x3a\x01*", 3));
    grpc::ByteBuffer request(&request_slice, 1);
    call->Write(request, Tag(2));
    if (!Await(cq, Tag(2))) return "";
    call->WritesDone(Tag(3));
    if (!Await(cq, Tag(3))) return "";
    grpc::ByteBuffer response;
    call->Read(&response, Tag(4));
    const bool got_response = Await(cq, Tag(4));
    grpc::Status status;
    call->Finish(&status, Tag(5));
    Await(cq, Tag(5));
    cq.Shutdown();
    EXPECT_TRUE(status.ok()) << status.error_message();
    if (!got_response) return "";
    std::vector<grpc::Slice> slices;
    EXPECT_TRUE(response.Dump(&slices).ok());
    std::string bytes;
    for (const grpc::Slice& s : slices) {
      bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
    return bytes;
  }
};

TEST_F(ReflectionRpcTest, ListsOurServicesAndHealthWithoutAnyProtoFile) {
  StartServer();
  const std::string listed = ListServicesResponse();
  ASSERT_FALSE(listed.empty());
  for (const char* service : {"warpwatch.v1.JobService", "warpwatch.v1.WorkerService",
                              "warpwatch.v1.ResultService", "warpwatch.v1.FleetService",
                              "grpc.health.v1.Health"}) {
    EXPECT_NE(listed.find(service), std::string::npos) << service << " not listed";
  }
}

}  // namespace
}  // namespace warpwatch::testing
