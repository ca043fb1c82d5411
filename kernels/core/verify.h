// Comparison of a device output (copied back) with its CPU reference, exact or within a tolerance,
// producing the VerifyResult the engine records. Messages name the first mismatch, expected and got.
#ifndef WARPWATCH_KERNELS_CORE_VERIFY_H_
#define WARPWATCH_KERNELS_CORE_VERIFY_H_

#include <cmath>
#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/parallel_for.h"

namespace warpwatch::kernels {

// Formats one element for a message (bytes as numbers, floats with full precision).
template <typename T>
std::string FormatElement(const T& v) {
  std::ostringstream os;
  if constexpr (std::is_floating_point_v<T>) {
    os.precision(9);
    os << v;
  } else if constexpr (sizeof(T) == 1) {
    os << static_cast<int>(v);
  } else {
    os << v;
  }
  return os.str();
}

// OK when got == expected element by element (bitwise-equal values for our data: no NaNs). Else
// an INTERNAL status "<what>: N of M elements differ; first at index i: expected e,
// got g"; max_error is the largest absolute difference seen.
template <typename T>
VerifyResult CompareExact(const std::vector<T>& expected, const std::vector<T>& got,
                          const std::string& what) {
  VerifyResult result;
  if (expected.size() != got.size()) {
    result.status = InternalError(what + ": output has " + std::to_string(got.size()) +
                                  " elements, reference " + std::to_string(expected.size()));
    return result;
  }
  // One partial result per ParallelFor range, combined in range order (so "first" is the first).
  struct Part {
    size_t mismatches = 0;
    size_t first = 0;
    double max_error = 0;
  };
  const int64_t n = static_cast<int64_t>(expected.size());
  const int parts = ParallelForParts(n);
  std::vector<Part> part(static_cast<size_t>(parts));
  ParallelFor(n, [&](int k, int64_t begin, int64_t end) {
    Part& p = part[static_cast<size_t>(k)];
    for (size_t i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
      if (!(expected[i] == got[i])) {
        if (p.mismatches == 0) p.first = i;
        ++p.mismatches;
        const double diff =
            std::fabs(static_cast<double>(expected[i]) - static_cast<double>(got[i]));
        if (diff > p.max_error) p.max_error = diff;
      }
    }
  });
  size_t mismatches = 0;
  size_t first = 0;
  for (const Part& p : part) {
    if (mismatches == 0 && p.mismatches > 0) first = p.first;
    mismatches += p.mismatches;
    result.max_error = std::max(result.max_error, p.max_error);
  }
  if (mismatches > 0) {
    result.status = InternalError(
        what + ": " + std::to_string(mismatches) + " of " + std::to_string(expected.size()) +
        " elements differ; first at index " + std::to_string(first) + ": expected " +
        FormatElement(expected[first]) + ", got " + FormatElement(got[first]));
  }
  return result;
}

// The same within a relative tolerance, for results the device and the host round differently
// (the instr.* families' transcendental loops): element i matches when
// |got - expected| <= tolerance * max(1, |expected|). tolerance 0 is CompareExact. max_error is the
// largest absolute difference over every element, matching or not.
template <typename T>
VerifyResult CompareWithin(const std::vector<T>& expected, const std::vector<T>& got,
                           double tolerance, const std::string& what) {
  if (tolerance == 0) return CompareExact(expected, got, what);
  VerifyResult result;
  if (expected.size() != got.size()) {
    result.status = InternalError(what + ": output has " + std::to_string(got.size()) +
                                  " elements, reference " + std::to_string(expected.size()));
    return result;
  }
  size_t mismatches = 0;
  size_t first = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const double e = static_cast<double>(expected[i]);
    const double diff = std::fabs(static_cast<double>(got[i]) - e);
    if (!(diff <= result.max_error)) result.max_error = diff;
    if (!(diff <= tolerance * std::fmax(1.0, std::fabs(e)))) {
      if (mismatches == 0) first = i;
      ++mismatches;
    }
  }
  if (mismatches > 0) {
    std::ostringstream os;
    os.precision(17);
    os << what << ": " << mismatches << " of " << expected.size()
       << " elements differ by more than " << tolerance << " (relative); first at index " << first
       << ": expected " << expected[first] << ", got " << got[first];
    result.status = InternalError(os.str());
  }
  return result;
}

// Waits for `stream` and downloads the first `count` elements of d_out; errors name `what`.
template <typename T>
StatusOr<std::vector<T>> DownloadAfter(const DeviceBuffer<T>& d_out, size_t count,
                                       const std::string& what, cudaStream_t stream) {
  const cudaError_t err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess)
    return CudaError(err, "cudaStreamSynchronize(stream)", __FILE__, __LINE__);
  StatusOr<std::vector<T>> got = d_out.CopyToHost(count);
  if (!got.ok()) return got.status().Annotate(what);
  return got;
}

// Waits for `stream`, downloads the first expected.size() elements of d_out and compares them
// with `expected` (CompareExact, or CompareWithin a non-zero `tolerance`). For Case::Verify.
template <typename T>
VerifyResult VerifyDeviceOutput(const DeviceBuffer<T>& d_out, const std::vector<T>& expected,
                                const std::string& what, cudaStream_t stream,
                                double tolerance = 0) {
  StatusOr<std::vector<T>> got = DownloadAfter(d_out, expected.size(), what, stream);
  if (!got.ok()) {
    VerifyResult failed;
    failed.status = got.status();
    return failed;
  }
  return CompareWithin(expected, *got, tolerance, what);
}

// The same for families whose CPU reference is too slow for every element: compares d_out at the
// indices `picked` with `expected` (one value per picked index, in the same order), exactly or
// within `tolerance` (CompareWithin). A mismatch's index counts within the sample.
template <typename T>
VerifyResult VerifyDeviceSample(const DeviceBuffer<T>& d_out, const std::vector<int64_t>& picked,
                                const std::vector<T>& expected, const std::string& what,
                                cudaStream_t stream, double tolerance = 0) {
  StatusOr<std::vector<T>> got = DownloadAfter(d_out, d_out.size(), what, stream);
  if (!got.ok()) {
    VerifyResult failed;
    failed.status = got.status();
    return failed;
  }
  std::vector<T> got_sample;
  got_sample.reserve(picked.size());
  for (int64_t i : picked) got_sample.push_back((*got)[static_cast<size_t>(i)]);
  return CompareWithin(expected, got_sample, tolerance,
                       what + " (sampled; indices count within the sample)");
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_VERIFY_H_
