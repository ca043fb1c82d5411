// CPU-only tests of kernels/core/host_transfer_case.h and host_buffer.h: what
// MakeHostTransferCase refuses, what the case reports before Setup, and the pageable buffer (the
// page-locked kinds need the CUDA driver: transfer.host_device's GPU tests run them).
#include "kernels/core/host_transfer_case.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "kernels/core/host_buffer.h"

namespace warpwatch::kernels {
namespace {

HostTransferSpec CompleteSpec() {
  HostTransferSpec s;
  s.key = "transfer.host_device/pinned?bytes=16";
  s.bytes = 16;
  s.fill_host = [](uint8_t*, size_t) {};
  s.run = [](const HostBuffer&, uint8_t*, cudaStream_t) { return OkStatus(); };
  s.reference = [] { return std::vector<uint8_t>(16, 1); };
  s.work.bytes = 16;
  return s;
}

TEST(MakeHostTransferCase, ACompleteSpecGivesACaseWithoutAKernelOfOurs) {
  StatusOr<std::unique_ptr<Case>> made = MakeHostTransferCase(CompleteSpec());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_EQ((*made)->Shape().function, nullptr);
  EXPECT_EQ((*made)->work().bytes, 16);
  EXPECT_FALSE((*made)->host_synchronous());
}

TEST(MakeHostTransferCase, TheCaseIsHostSynchronousWhenTheSpecSaysSo) {
  HostTransferSpec s = CompleteSpec();
  s.host_synchronous = true;
  StatusOr<std::unique_ptr<Case>> made = MakeHostTransferCase(std::move(s));
  ASSERT_TRUE(made.ok());
  EXPECT_TRUE((*made)->host_synchronous());
}

TEST(MakeHostTransferCase, ASpecWithoutFillRunOrReferenceIsAnInternalError) {
  HostTransferSpec s = CompleteSpec();
  s.fill_host = nullptr;
  EXPECT_EQ(MakeHostTransferCase(s).status().code(), StatusCode::kInternal);
  s = CompleteSpec();
  s.run = nullptr;
  EXPECT_EQ(MakeHostTransferCase(s).status().code(), StatusCode::kInternal);
  s = CompleteSpec();
  s.reference = nullptr;
  EXPECT_EQ(MakeHostTransferCase(s).status().code(), StatusCode::kInternal);
}

TEST(HostBuffer, APageableBufferIsZeroedHostMemoryWithoutADevicePointer) {
  HostBuffer b;
  ASSERT_TRUE(b.Allocate(HostMemory::kPageable, 64).ok());
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), 64u);
  EXPECT_EQ(b.kind(), HostMemory::kPageable);
  EXPECT_EQ(b.device_pointer(), nullptr);
  EXPECT_EQ(std::vector<uint8_t>(b.data(), b.data() + 64), std::vector<uint8_t>(64, 0));
}

TEST(HostBuffer, ASecondAllocationIsAnInternalError) {
  HostBuffer b;
  ASSERT_TRUE(b.Allocate(HostMemory::kPageable, 8).ok());
  EXPECT_EQ(b.Allocate(HostMemory::kPageable, 8).code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace warpwatch::kernels
