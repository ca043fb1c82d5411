// File: bench/bench_host_memory.cc
// The host alone, no GPU (issue 24 item 4): does the host's own memory bandwidth, first-touch page
// fault cost and CPU speed move over seconds the way the host-side cases do? One thread, windows
// of --window-ms, each window timing in turn:
//   memcpy      a 256 MiB copy between two touched buffers (the host half of a pageable copy)
//   faults      first-touch page faults on a fresh 16 MiB anonymous mapping, 4 KiB pages (what
//               the kernel does for a fresh allocation and, in part, for a migrated managed page)
//   cpu         a dependent integer chain in registers (no memory): the reference, flat when only
//               memory moves
// It prints each metric's median and its spread between windows and between 1 s blocks, and the
// ratio of each spread to the cpu loop's. --json writes one line per window. CUDA-free.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "worker/stats/sample_stats.h"

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Seconds of one 256 MiB memcpy from `src` to `dst`.
double TimeMemcpy(std::vector<char>& dst, const std::vector<char>& src) {
  const Clock::time_point t = Clock::now();
  std::memcpy(dst.data(), src.data(), src.size());
  return SecondsSince(t);
}

// Microseconds per 4 KiB first-touch fault on a fresh anonymous mapping of `bytes`; -1 when the
// mapping fails.
double TimeFaults(size_t bytes) {
  const Clock::time_point t = Clock::now();
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return -1;
  volatile char* c = static_cast<volatile char*>(p);
  for (size_t i = 0; i < bytes; i += 4096) c[i] = 1;
  munmap(p, bytes);
  return SecondsSince(t) * 1e6 / static_cast<double>(bytes / 4096);
}

// Where each chain's last value goes, so that the compiler keeps the chain.
volatile uint64_t g_chain_sink = 88172645463325252ull;

// Nanoseconds per step of a dependent xorshift chain of `steps`.
double TimeCpu(uint64_t steps) {
  uint64_t x = g_chain_sink | 1;
  const Clock::time_point t = Clock::now();
  for (uint64_t i = 0; i < steps; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  g_chain_sink = x;
  return SecondsSince(t) * 1e9 / static_cast<double>(steps);
}

double Median(const std::vector<double>& v) { return warpwatch::worker::Percentile(v, 50); }

struct Window {
  double t = 0;              // seconds since the start, at the window's start
  double memcpy_gbps = 0;    // median of the window's copies
  double fault_us = 0;       // median of the window's mappings
  double cpu_ns = 0;         // median of the window's chains
};

struct Spread {
  double median = 0;
  double window_rsd = 0;     // between windows
  double block_rsd = 0;      // between the medians of 1 s blocks
  double block_range = 0;    // (max - min) / median of the block medians
};

Spread SpreadOf(const std::vector<Window>& windows, double Window::*field) {
  Spread s;
  std::vector<double> all;
  std::vector<std::vector<double>> blocks;
  for (const Window& w : windows) {
    all.push_back(w.*field);
    const size_t b = static_cast<size_t>(w.t);
    if (blocks.size() <= b) blocks.resize(b + 1);
    blocks[b].push_back(w.*field);
  }
  s.median = Median(all);
  s.window_rsd = warpwatch::worker::RelativeStandardDeviation(all);
  std::vector<double> medians;
  for (const std::vector<double>& b : blocks) {
    if (!b.empty()) medians.push_back(Median(b));
  }
  s.block_rsd = warpwatch::worker::RelativeStandardDeviation(medians);
  s.block_range = (*std::max_element(medians.begin(), medians.end()) -
                   *std::min_element(medians.begin(), medians.end())) /
                  Median(medians);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The host's memory bandwidth, page-fault cost and CPU speed over time (no GPU)"};
  double seconds = 10;
  int window_ms = 200;
  std::string json_path;
  app.add_option("--seconds", seconds, "how long to sample")->check(CLI::Range(1.0, 3600.0));
  app.add_option("--window-ms", window_ms, "one window of each metric")
      ->check(CLI::Range(50, 10000));
  app.add_option("--json", json_path, "write one JSON line per window here");
  CLI11_PARSE(app, argc, argv);

  constexpr size_t kCopyBytes = size_t{256} << 20;
  constexpr size_t kFaultBytes = size_t{16} << 20;
  constexpr uint64_t kCpuSteps = 2'000'000;
  std::vector<char> src(kCopyBytes);
  std::vector<char> dst(kCopyBytes);
  for (size_t i = 0; i < kCopyBytes; ++i) src[i] = static_cast<char>(i * 131u);
  std::memset(dst.data(), 0, kCopyBytes);  // touched: the copy times bandwidth, not faults
  TimeMemcpy(dst, src);  // warm-up

  std::vector<Window> windows;
  const Clock::time_point start = Clock::now();
  const double part = window_ms / 1000.0 / 3;  // a third of the window per metric
  while (SecondsSince(start) < seconds) {
    Window w;
    w.t = SecondsSince(start);
    std::vector<double> copies, faults, cpu;
    for (Clock::time_point t = Clock::now(); SecondsSince(t) < part || copies.empty();) {
      copies.push_back(static_cast<double>(kCopyBytes) / TimeMemcpy(dst, src) / 1e9);
    }
    for (Clock::time_point t = Clock::now(); SecondsSince(t) < part || faults.empty();) {
      const double us = TimeFaults(kFaultBytes);
      if (us < 0) {
        std::fprintf(stderr, "bench_host_memory: mmap of %zu bytes failed\n", kFaultBytes);
        return 1;
      }
      faults.push_back(us);
    }
    for (Clock::time_point t = Clock::now(); SecondsSince(t) < part || cpu.empty();) {
      cpu.push_back(TimeCpu(kCpuSteps));
    }
    w.memcpy_gbps = Median(copies);
    w.fault_us = Median(faults);
    w.cpu_ns = Median(cpu);
    windows.push_back(w);
  }
  if (dst[12345] != src[12345]) return 1;  // the copies are used

  if (!json_path.empty()) {
    std::ofstream out(json_path);
    for (const Window& w : windows) {
      out << nlohmann::json{{"t", w.t}, {"memcpy_gbps", w.memcpy_gbps}, {"fault_us", w.fault_us},
                            {"cpu_ns", w.cpu_ns}}
                 .dump()
          << "\n";
    }
    if (!out) {
      std::fprintf(stderr, "bench_host_memory: cannot write %s\n", json_path.c_str());
      return 1;
    }
  }
  const Spread cpu = SpreadOf(windows, &Window::cpu_ns);
  std::printf("%zu windows of %d ms over %.1f s\n", windows.size(), window_ms,
              SecondsSince(start));
  std::printf("%-24s %10s %11s %10s %12s %13s\n", "metric", "median", "window RSD", "1 s RSD",
              "1 s range", "RSD / cpu's");
  const struct {
    const char* name;
    double Window::*field;
  } metrics[] = {{"memcpy GB/s", &Window::memcpy_gbps},
                 {"first-touch fault us", &Window::fault_us},
                 {"cpu chain ns/step", &Window::cpu_ns}};
  for (const auto& m : metrics) {
    const Spread s = SpreadOf(windows, m.field);
    std::printf("%-24s %10.3f %10.2f%% %9.2f%% %11.2f%% %13.2f\n", m.name, s.median,
                100 * s.window_rsd, 100 * s.block_rsd, 100 * s.block_range,
                cpu.block_rsd > 0 ? s.block_rsd / cpu.block_rsd : 0.0);
  }
  return 0;
}
