// CPU: libnccl is optional at run time. Where it loads (LD_LIBRARY_PATH or the system's libnccl2)
// every entry point is there and its version is a 2.x; where it does not, the answer is the
// "not applicable" the engine records as SKIPPED. Either way NVLS is off afterwards.
#include "kernels/interconnect/nccl_library.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "kernels/interconnect/nvls_guard.h"

namespace warpwatch::kernels {
namespace {

TEST(NcclLibraryTest, LoadsAllEntryPointsOrAnswersNotApplicable) {
  StatusOr<const NcclLibrary*> nccl = LoadNccl();
  if (nccl.ok()) {
    const NcclLibrary& n = **nccl;
    EXPECT_GE(n.version, 20000) << n.version;  // NCCL_VERSION(2, y, z) for y >= 9: 2 * 10000 + ...
    EXPECT_LT(n.version, 30000) << n.version;
    EXPECT_NE(n.all_reduce, nullptr);
    EXPECT_NE(n.all_gather, nullptr);
    EXPECT_NE(n.reduce_scatter, nullptr);
    EXPECT_TRUE(n.Check(ncclSuccess, "x").ok());
    const Status failed = n.Check(ncclInvalidArgument, "ncclAllReduce");
    EXPECT_EQ(failed.code(), StatusCode::kInternal);
    EXPECT_EQ(failed.message().rfind("ncclAllReduce: ", 0), 0u) << failed.message();
    std::printf("libnccl %d loaded\n", n.version);
  } else {
    EXPECT_EQ(nccl.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_EQ(nccl.status().message().rfind("not applicable: libnccl not found (", 0), 0u)
        << nccl.status().message();
  }
  ASSERT_NE(std::getenv(kNvlsVariable), nullptr);
  EXPECT_STREQ(std::getenv(kNvlsVariable), "0");
}

TEST(NcclLibraryTest, AnAbsentLibraryIsNotApplicableNotAnError) {
  StatusOr<const NcclLibrary*> nccl = LoadNcclFrom("/nonexistent/libnccl.so.2");
  ASSERT_FALSE(nccl.ok());
  EXPECT_EQ(nccl.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(nccl.status().message().rfind("not applicable: libnccl not found (", 0), 0u)
      << nccl.status().message();
  EXPECT_NE(nccl.status().message().find("/nonexistent/libnccl.so.2"), std::string::npos);
}

TEST(NcclLibraryTest, ALibraryWithoutNcclsEntryPointsIsNotApplicable) {
  StatusOr<const NcclLibrary*> nccl = LoadNcclFrom("libm.so.6");
  ASSERT_FALSE(nccl.ok());
  EXPECT_EQ(nccl.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(nccl.status().message().find("lacks an entry point"), std::string::npos)
      << nccl.status().message();
}

}  // namespace
}  // namespace warpwatch::kernels
