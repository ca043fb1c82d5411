// interconnect.nccl's expected values.
#include "kernels/interconnect/nccl/nccl_reference.h"

#include "kernels/interconnect/nccl/nccl_values.h"

namespace warpwatch::kernels {

float NcclExpected(Collective op, int rank, int ranks, int64_t count, int64_t index) {
  switch (op) {
    case Collective::kAllReduce: {
      float sum = 0;
      for (int q = 0; q < ranks; ++q) sum += NcclSendValue(q, static_cast<uint64_t>(index));
      return sum;
    }
    case Collective::kAllGather:
      return NcclSendValue(static_cast<int>(index / count), static_cast<uint64_t>(index % count));
    case Collective::kReduceScatter: {
      float sum = 0;
      for (int q = 0; q < ranks; ++q) {
        sum += NcclSendValue(q, static_cast<uint64_t>(rank * count + index));
      }
      return sum;
    }
  }
  return -1;
}

std::vector<int64_t> NcclCheckedIndices(int64_t elements, int64_t limit) {
  std::vector<int64_t> picked;
  if (elements <= 0) return picked;
  const int64_t stride = elements <= limit ? 1 : (elements + limit - 1) / limit;
  for (int64_t i = 0; i < elements; i += stride) picked.push_back(i);
  if (picked.back() != elements - 1) picked.push_back(elements - 1);
  return picked;
}

}  // namespace warpwatch::kernels
