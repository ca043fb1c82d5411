// CPU-only: the families moved onto the elementwise case template (issue 28) launch and count work
// exactly as their own Case classes did. The expected values below are those classes' formulas
// (main at 081364b), evaluated at every catalog variant's first nightly point on an H100's limits:
// a change here changes what the suite measures.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "common/catalog/catalog.h"
#include "kernels/control/divergence/divergence_paths.h"
#include "kernels/control/divergence/divergence_reference.h"
#include "kernels/control/unroll/unroll_step.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/latency/ilp/ilp_chains.h"
#include "kernels/memory/coalescing/coalescing_kernels.h"
#include "kernels/memory/constant/constant_kernels.h"
#include "kernels/memory/local/local_array.h"
#include "kernels/memory/vector_width/vector_width_kernels.h"
#include "kernels/shared/bank_conflicts/bank_conflicts_kernels.h"
#include "kernels/shared/transpose/transpose_kernels.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

struct Expected {
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  size_t dynamic_shared_bytes = 0;
  bool has_kernel = true;
  double bytes = 0;
  double flops = 0;
};

using Params = std::map<std::string, int64_t>;
using Formula = std::function<Expected(const std::string& variant, const Params& p)>;

// 1-D launch of `items` with `per_thread` each at the point's block_size.
Expected OneD(const Params& p, int64_t items, int64_t per_thread = 1) {
  Expected e;
  const int64_t block = p.at("block_size");
  e.block = dim3(static_cast<unsigned>(block));
  e.grid = dim3(static_cast<unsigned>(CeilDiv(items, block * per_thread)));
  return e;
}

const std::map<std::string, Formula>& Formulas() {
  static const auto* formulas = new std::map<std::string, Formula>{
      {"memory.alignment",
       [](const std::string&, const Params& p) {
         Expected e = OneD(p, p.at("n"), 4);
         e.bytes = 2.0 * 4 * p.at("n");
         return e;
       }},
      {"memory.coalescing",
       [](const std::string& v, const Params& p) {
         Expected e;
         if (v == "memcpy") {
           e.has_kernel = false;
         } else {
           e = OneD(p, p.at("n"), kCoalescingElementsPerThread);
         }
         e.bytes = 2.0 * 4 * p.at("n");
         return e;
       }},
      {"memory.vector_width",
       [](const std::string& v, const Params& p) {
         const int64_t bytes = 4 * p.at("n");
         const int64_t word = std::stoi(v.substr(1));
         Expected e = OneD(p, bytes / word, kVectorWordsPerThread);
         e.bytes = 2.0 * bytes;
         return e;
       }},
      {"memory.constant",
       [](const std::string&, const Params& p) {
         Expected e = OneD(p, p.at("n"));
         e.bytes = 4.0 * p.at("n");
         e.flops = 2.0 * kConstantReads * p.at("n");
         return e;
       }},
      {"memory.local",
       [](const std::string&, const Params& p) {
         Expected e = OneD(p, p.at("n"));
         e.bytes = 2.0 * 4 * p.at("n");
         e.flops = 2.0 * p.at("n") * p.at("array_size") * (1 + kLocalRounds);
         return e;
       }},
      {"control.divergence",
       [](const std::string& v, const Params& p) {
         const DivergenceBranch branch = v == "thread_branch" ? DivergenceBranch::kThread
                                         : v == "warp_branch" ? DivergenceBranch::kWarp
                                                              : DivergenceBranch::kPredicated;
         const int64_t n = p.at("n");
         Expected e = OneD(p, n);
         const double a = static_cast<double>(DivergencePathACount(branch, n));
         e.bytes = 2.0 * 4 * n;
         e.flops = a * kDivergencePathAFlops + (n - a) * kDivergencePathBFlops;
         return e;
       }},
      {"control.unroll",
       [](const std::string&, const Params& p) {
         Expected e = OneD(p, p.at("n"));
         e.bytes = 2.0 * 4 * p.at("n");
         e.flops = 3.0 * kUnrollInnerSteps * kUnrollOuterReps * p.at("n");
         return e;
       }},
      {"latency.ilp",
       [](const std::string& v, const Params& p) {
         Expected e;
         const int64_t block = p.at("block_size");
         e.block = dim3(static_cast<unsigned>(block));
         e.grid = dim3(static_cast<unsigned>(p.at("blocks_per_sm") * 132));
         const double threads = static_cast<double>(e.grid.x) * block;
         const int ilp = std::stoi(v.substr(3));
         e.bytes = 2.0 * 4 * threads;
         e.flops = 2.0 * kIlpTotalFmas * threads + (ilp - 1) * threads;
         return e;
       }},
      {"shared.bank_conflicts",
       [](const std::string&, const Params& p) {
         const int64_t threads = p.at("n") / kBankReadsPerThread;
         Expected e = OneD(p, threads);
         e.flops = static_cast<double>(p.at("n"));
         e.bytes =
             4.0 * (static_cast<double>(threads) + static_cast<double>(e.grid.x) * kBankTableWords);
         return e;
       }},
      {"shared.transpose",
       [](const std::string&, const Params& p) {
         Expected e;
         const int64_t side = p.at("side");
         const unsigned tiles = static_cast<unsigned>(CeilDiv(side, kTransposeTile));
         e.block = dim3(kTransposeTile, static_cast<unsigned>(p.at("block_rows")));
         e.grid = dim3(tiles, tiles);
         e.bytes = 2.0 * 4 * static_cast<double>(side) * static_cast<double>(side);
         return e;
       }},
      {"occupancy.shared_memory",
       [](const std::string& v, const Params& p) {
         Expected e = OneD(p, p.at("n"));
         e.dynamic_shared_bytes = v == "padded" ? static_cast<size_t>(p.at("shared_bytes"))
                                                : static_cast<size_t>(p.at("block_size")) * 4;
         e.bytes = 2.0 * 4 * p.at("n");
         return e;
       }},
  };
  return *formulas;
}

TEST(ElementwiseFamilies, EveryVariantLaunchesAndCountsWorkAsItsOwnCaseDid) {
  const cudaDeviceProp prop = FakeH100Properties();
  for (const auto& [name, formula] : Formulas()) {
    const catalog::FamilyInfo* info = catalog::FindFamily(name);
    const Family* family = FindImplementation(name);
    ASSERT_NE(info, nullptr) << name;
    ASSERT_NE(family, nullptr) << name;
    for (const catalog::VariantInfo& v : info->variants) {
      const catalog::Point point = MakePoint(name, v.name);
      SCOPED_TRACE(point.Canonical());
      StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
      ASSERT_TRUE(made.ok()) << made.status().ToString();
      const Expected e = formula(v.name, point.params);
      const LaunchShape shape = (*made)->Shape();
      EXPECT_EQ(shape.function != nullptr, e.has_kernel);
      EXPECT_EQ(shape.grid.x, e.grid.x);
      EXPECT_EQ(shape.grid.y, e.grid.y);
      EXPECT_EQ(shape.block.x, e.block.x);
      EXPECT_EQ(shape.block.y, e.block.y);
      EXPECT_EQ(shape.dynamic_shared_bytes, e.dynamic_shared_bytes);
      EXPECT_DOUBLE_EQ((*made)->work().bytes, e.bytes);
      EXPECT_DOUBLE_EQ((*made)->work().flops, e.flops);
      EXPECT_FALSE((*made)->hot());
      EXPECT_FALSE((*made)->host_synchronous());
    }
  }
}

}  // namespace
}  // namespace warpwatch::kernels
