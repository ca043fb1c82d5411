// Catalog entries of the shared.* families (guide 5.3.2 shared memory, notes 2.2.6).
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo SharedBankConflicts() {
  FamilyInfo f;
  f.name = "shared.bank_conflicts";
  f.guide_section = "5.3.2 shared memory";
  f.lesson = "n-way conflict divides throughput by n; broadcast is free";
  f.variants = {
      {"conflict_free", "thread t reads 32-bit word t of a shared array (stride 1)",
       /*recommended=*/true, false},
      {"strided", "thread t reads word t*stride: gcd(stride, 32)-way conflicts", false, false},
      {"broadcast", "every thread of a warp reads the same word", false, false},
  };
  // 1024 reads per thread; at 2^28 reads a conflict-free point takes 40 us on an H100, long
  // against the launch, and the 32-way one 1.06 ms, still cheap for the nightly suite.
  f.axes = {
      ProblemSizeAxis("shared-memory reads summed over the grid (1024 per thread)", {1 << 28},
                      1 << 10, int64_t{1} << 30),
      BlockSizeAxis({256}),
      Axis("stride", "distance in 32-bit words between neighbouring threads' addresses",
           {2, 3, 32}, 1, 32),
  };
  f.axes[0].multiple_of = 1024;
  f.axes.back().variants = {"strided"};
  // Conflicts per request = bank conflicts / shared load instructions; wavefronts per request =
  // wavefronts / instructions (1 when conflict free, n for an n-way conflict).
  f.counters = {kSharedLoadBankConflicts, kSharedStoreBankConflicts,
                "smsp__inst_executed_op_shared_ld.sum",
                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", kIssueActive};
  return f;
}

FamilyInfo SharedTranspose() {
  FamilyInfo f;
  f.name = "shared.transpose";
  f.guide_section = "5.3.2 shared memory / notes 2.2.6";
  f.lesson = "padding removes the conflicts the tile introduced";
  f.variants = {
      {"copy", "side x side copy with the same 32x32 tiling: the ceiling a transpose can reach",
       false, /*reference=*/true},
      {"naive", "out[x][y] = in[y][x] straight from global memory: stores are strided", false,
       false},
      {"shared_tile", "through a float[32][32] shared tile: coalesced, 32-way bank conflicts",
       false, false},
      {"shared_tile_padded", "through a float[32][33] shared tile: coalesced, conflict free",
       /*recommended=*/true, false},
  };
  // Tile fixed at 32x32; a block is 32 x block_rows threads, each thread moving 32/block_rows
  // elements. There is no block_size axis: the block shape is (32, block_rows).
  AxisInfo side = Axis("side", "matrix side in float elements (the matrix is side x side)",
                       {4096, 8192}, 32, 16384);
  side.multiple_of = 32;
  AxisInfo block_rows = Axis("block_rows", "thread rows per 32x32 tile (block is 32 x block_rows)",
                             {8}, 1, 32);
  block_rows.power_of_two = true;
  f.axes = {side, block_rows};
  f.counters = {kSharedLoadBankConflicts, kSharedStoreBankConflicts, kGlobalLoadEfficiency,
                kGlobalStoreEfficiency, kDramThroughput};
  return f;
}

}  // namespace warpwatch::catalog::detail
