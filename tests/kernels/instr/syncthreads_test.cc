// CPU: instr.syncthreads' reference exchanges with the partner thread, which starts at 0 beyond n.
#include <gtest/gtest.h>

#include "kernels/instr/syncthreads/syncthreads_reference.h"

namespace warpwatch::kernels {
namespace {

TEST(SyncthreadsReference, WithoutABarrierEachThreadReadsItself) {
  const double one = BarrierReference(BarrierKind::kNone, 1, 8, 2, 1);
  const double two = BarrierReference(BarrierKind::kNone, 1, 8, 2, 2);
  EXPECT_EQ(two, static_cast<double>(static_cast<uint32_t>(one) * 4u + 1u));
}

TEST(SyncthreadsReference, APartnerBeyondNStartsAtZero) {
  EXPECT_NE(BarrierReference(BarrierKind::kSyncthreads, 1, 1, 0, 4),
            BarrierReference(BarrierKind::kSyncthreads, 1, 2, 0, 4));
  EXPECT_EQ(BarrierReference(BarrierKind::kSyncthreads, 1, 2, 0, 4),
            BarrierReference(BarrierKind::kSyncwarp, 1, 2, 0, 4));
}

}  // namespace
}  // namespace warpwatch::kernels
