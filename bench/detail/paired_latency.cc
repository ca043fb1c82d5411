// File: bench/detail/paired_latency.cc
#include "bench/detail/paired_latency.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace warpwatch::bench {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

Percentiles Summarize(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  // Nearest rank: the smallest value with at least q of the samples at or below it.
  auto at = [&](double q) {
    const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(ms.size())));
    return ms[std::clamp<size_t>(rank, 1, ms.size()) - 1];
  };
  return {at(0.50), at(0.99), ms.back()};
}

PairedLatency TimePaired(const std::string& name, int calls, const std::function<bool(int)>& call,
                         const std::function<void()>& reference) {
  std::vector<double> measured;
  std::vector<double> ref;
  PairedLatency out;
  out.name = name;
  for (int q = 0; q < calls; ++q) {
    auto start = Clock::now();
    reference();
    ref.push_back(MillisecondsSince(start));
    start = Clock::now();
    if (!call(q)) out.ok = false;
    measured.push_back(MillisecondsSince(start));
  }
  out.measured = Summarize(std::move(measured));
  out.reference = Summarize(std::move(ref));
  return out;
}

void PrintLatencyTable(const std::vector<PairedLatency>& rows, int calls, double target_ms) {
  std::printf("\n%d calls each, ms; ref = Store::Ping (BEGIN; SELECT 1; COMMIT) on the same "
              "connection just before each call\n",
              calls);
  std::printf("%-50s %7s %7s %7s | %6s %6s | %7s %7s | %s\n", "query", "p50", "p99", "max",
              "ref50", "ref99", "p50/ref", "p99/ref", "p99 target");
  for (const PairedLatency& r : rows) {
    const bool met = r.measured.p99_ms < target_ms;
    std::printf("%-50s %7.2f %7.2f %7.2f | %6.2f %6.2f | %7.1f %7.1f | %s%s\n", r.name.c_str(),
                r.measured.p50_ms, r.measured.p99_ms, r.measured.max_ms, r.reference.p50_ms,
                r.reference.p99_ms, r.measured.p50_ms / r.reference.p50_ms,
                r.measured.p99_ms / r.reference.p99_ms, met ? "met" : "MISSED",
                r.ok ? "" : " (WRONG RESULTS)");
  }
}

}  // namespace warpwatch::bench
