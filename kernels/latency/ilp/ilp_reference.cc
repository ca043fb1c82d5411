// CPU reference of latency.ilp.
#include "kernels/latency/ilp/ilp_reference.h"

#include <cstddef>

#include "kernels/latency/ilp/ilp_chains.h"

namespace warpwatch::kernels {

float IlpReferenceValue(int ilp, float x) {
  std::vector<float> c(static_cast<size_t>(ilp));
  for (int j = 0; j < ilp; ++j) c[static_cast<size_t>(j)] = IlpChainStart(x, j);
  for (int k = 0; k < kIlpTotalFmas / ilp; ++k) {
    for (float& v : c) v = IlpStep(v);
  }
  float sum = c[0];
  for (int j = 1; j < ilp; ++j) sum += c[static_cast<size_t>(j)];
  return sum;
}

std::vector<int64_t> IlpVerifiedThreads(int64_t threads) {
  std::vector<int64_t> picked;
  for (int64_t t = 0; t < threads; t += kIlpVerifyStride) picked.push_back(t);
  if (threads > 0 && picked.back() != threads - 1) picked.push_back(threads - 1);
  return picked;
}

}  // namespace warpwatch::kernels
