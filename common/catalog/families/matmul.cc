// Catalog entry of matmul (notes 2.3.1: data reuse through shared memory).
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo Matmul() {
  FamilyInfo f;
  f.name = "matmul";
  f.guide_section = "notes 2.3.1 matrix multiplication with shared memory";
  f.lesson = "data reuse through shared memory";
  f.variants = {
      {"naive", "C = A*B, each thread one element of C straight from global memory", false,
       false},
      {"shared_tiled", "tile x tile blocks of A and B staged in shared memory",
       /*recommended=*/true, false},
      {"cublas", "cublasSgemm", false, /*reference=*/true},
  };
  AxisInfo side = Axis("side", "matrix side in float elements (square side x side matrices)",
                       {2048}, 32, 16384);
  side.multiple_of = 32;
  AxisInfo tile = Axis("tile", "tile side of shared_tiled (block is tile x tile threads)",
                       {32}, 8, 32);
  tile.power_of_two = true;
  tile.variants = {"shared_tiled"};
  f.axes = {side, tile};
  f.counters = {kFmaPipe, kSmThroughput, kSharedLoadBankConflicts, kDramThroughput};
  return f;
}

}  // namespace warpwatch::catalog::detail
