// bench_l2_flush: which L2 flush lets CUDA events time what the kernel itself takes. For each case
// and each flush method (none, memset, read pass, memset then read pass), samples are timed with
// events exactly as the engine does (blocking kernel, clock stamps) while CUPTI's activity API
// records the kernels' own start/end; the ratio printed is event median / kernel median, so 1.00
// means the events time the kernel and nothing else. Also prints what tracing costs: the event
// median of the read-pass method with tracing off over the one with it on. Without the clock
// stamps there are no marker kernels to split CUPTI's records into samples: those rows take the
// median duration of the case's main kernel alone (for the two-kernel reductions the events also
// hold the final pass, so compare those rows with each other, not with 1.00).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/detail/ratio_report.h"
#include "common/catalog/plan.h"
#include "kernels/core/cuda_check.h"
#include "kernels/core/family.h"
#include "worker/engine/case_sampler.h"
#include "worker/engine/clock_stamps.h"
#include "worker/engine/kernel_symbols.h"
#include "worker/engine/l2_flusher.h"
#include "worker/engine/launch_blocker.h"
#include "worker/profiler/kernel_trace.h"
#include "worker/profiler/kernel_tracer.h"
#include "worker/stats/sample_stats.h"

namespace warpwatch::bench {
namespace {

struct Method {
  const char* name;
  bool flush;
  worker::FlushMethod method;
  bool blocker = true;  // the engine's blocking kernel
  bool stamps = true;   // the engine's clock stamps around the events
};

// The first four differ in the flush only (the engine's sampling otherwise); the last two take the
// engine's read-pass flush and drop the clock stamps, then the blocker too, to show what each adds
// to the event time.
constexpr Method kMethods[] = {
    {"none (hot)", false, worker::FlushMethod::kReadPass},
    {"memset 2x L2", true, worker::FlushMethod::kMemset},
    {"read pass 2x L2", true, worker::FlushMethod::kReadPass},
    {"memset + read pass", true, worker::FlushMethod::kMemsetThenRead},
    {"read pass, no stamps", true, worker::FlushMethod::kReadPass, true, false},
    {"read pass, bare events", true, worker::FlushMethod::kReadPass, false, false},
};

struct Row {
  std::string key;
  std::string kernel;
  std::string method;
  double event_median = 0;
  double kernel_median = 0;
  double untraced_event_median = 0;  // read pass only: tracing off
};

struct Tools {
  cudaStream_t stream = nullptr;
  std::unique_ptr<worker::LaunchBlocker> blocker;
  std::unique_ptr<worker::ClockStamps> stamps;
  std::string marker;
  std::string main_kernel;  // mangled symbol of the case's first kernel ("" when not ours)
};

// Median event time of `runs` samples, and (traced) the kernels' median span.
Status Sample(kernels::Case& c, Tools& t, worker::L2Flusher* flusher, const Method& m, int runs,
              bool traced, double* event_median, double* kernel_median) {
  worker::SamplerTools tools;
  tools.flusher = flusher;
  tools.blocker = m.blocker ? t.blocker.get() : nullptr;
  tools.stamps = m.stamps ? t.stamps.get() : nullptr;
  ASSIGN_OR_RETURN(std::unique_ptr<worker::CaseSampler> sampler,
                   worker::CaseSampler::Create(&c, t.stream, tools));
  worker::KernelTracer* tracer = nullptr;
  if (traced) {
    ASSIGN_OR_RETURN(tracer, worker::KernelTracer::Get());
    RETURN_IF_ERROR(tracer->Start());
  }
  std::vector<double> events;
  Status s = OkStatus();
  for (int i = 0; i < runs && s.ok(); ++i) {
    StatusOr<double> e = sampler->TakeSample();
    if (e.ok()) {
      events.push_back(*e);
    } else {
      s = e.status();
    }
  }
  if (tracer != nullptr) {
    StatusOr<std::vector<worker::KernelRecord>> records = tracer->Stop();
    RETURN_IF_ERROR(s);
    if (!records.ok()) return records.status();
    if (m.stamps) {
      *kernel_median =
          worker::Percentile(worker::SplitSamples(*records, t.marker).span_seconds, 50);
    } else {
      std::vector<double> main;
      for (const worker::KernelRecord& r : *records) {
        if (r.symbol == t.main_kernel) main.push_back((r.end_ns - r.start_ns) * 1e-9);
      }
      *kernel_median = worker::Percentile(main, 50);
    }
  }
  RETURN_IF_ERROR(s);
  *event_median = worker::Percentile(events, 50);
  return OkStatus();
}

StatusOr<std::vector<Row>> MeasureCase(const catalog::Point& point, const cudaDeviceProp& prop,
                                       Tools& t, int runs) {
  const std::string key = point.Canonical();
  const kernels::Family* family = kernels::FindImplementation(point.family);
  if (family == nullptr) return NotFoundError(key + ": family not implemented");
  ASSIGN_OR_RETURN(std::unique_ptr<kernels::Case> c, family->MakeCase(point, prop));
  RETURN_IF_ERROR(c->Setup(t.stream).Annotate(key + ": Setup"));
  RETURN_IF_ERROR(c->Reset(t.stream));
  RETURN_IF_ERROR(c->Run(t.stream));
  CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(t.stream));
  RETURN_IF_ERROR(c->Verify(t.stream).status.Annotate(key + ": verification failed"));
  std::string kernel;
  if (const void* f = c->Shape().function; f != nullptr) {
    ASSIGN_OR_RETURN(worker::KernelName name, worker::NameOfKernel(f));
    kernel = name.name;
    t.main_kernel = name.mangled;
  }
  std::vector<Row> rows;
  for (const Method& m : kMethods) {
    std::unique_ptr<worker::L2Flusher> flusher;
    if (m.flush) {
      ASSIGN_OR_RETURN(flusher, worker::L2Flusher::Create(prop.l2CacheSize, m.method));
    }
    Row row{key, kernel, m.name};
    RETURN_IF_ERROR(
        Sample(*c, t, flusher.get(), m, runs, true, &row.event_median, &row.kernel_median));
    if (m.flush && m.method == worker::FlushMethod::kReadPass && m.blocker && m.stamps) {
      double unused = 0;
      RETURN_IF_ERROR(
          Sample(*c, t, flusher.get(), m, runs, false, &row.untraced_event_median, &unused));
    }
    rows.push_back(row);
  }
  return rows;
}

int Main(int argc, char** argv) {
  CLI::App app{"L2 flush methods: CUDA-event time / the kernel's own CUPTI time"};
  std::string json_path;
  int runs = 200;
  app.add_option("--json", json_path, "also write the rows as JSON to this file");
  app.add_option("--runs", runs, "timed runs per case and method (median)")
      ->check(CLI::Range(5, 100000));
  CLI11_PARSE(app, argc, argv);
  if (!CudaDeviceOrSkip()) return 0;

  cudaDeviceProp prop{};
  Tools t;
  Status s = [&]() -> Status {
    CUDA_RETURN_IF_ERROR(cudaGetDeviceProperties(&prop, 0));
    CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&t.stream, cudaStreamNonBlocking));
    ASSIGN_OR_RETURN(t.blocker, worker::LaunchBlocker::Create(500'000'000ull));
    ASSIGN_OR_RETURN(t.stamps, worker::ClockStamps::Create(prop.multiProcessorCount));
    ASSIGN_OR_RETURN(worker::KernelName marker,
                     worker::NameOfKernel(worker::ClockStamps::Kernel()));
    t.marker = marker.mangled;
    return OkStatus();
  }();
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  const std::vector<catalog::Point> points = {
      catalog::Point{"memory.coalescing", "copy", {{"n", int64_t{1} << 24}, {"block_size", 256}}},
      catalog::Point{"memory.coalescing", "copy", {{"n", int64_t{1} << 26}, {"block_size", 256}}},
      catalog::Point{"reduce", "warp_shuffle", {{"n", int64_t{1} << 24}, {"block_size", 512}}},
      catalog::Point{"reduce", "unrolling8", {{"n", int64_t{1} << 24}, {"block_size", 512}}},
      catalog::Point{"memory.vector_width", "w16", {{"n", int64_t{1} << 24}, {"block_size", 256}}},
  };
  std::printf(
      "device: %s, %d runs per case and method; ratio = event median / CUPTI kernel "
      "median\n",
      prop.name, runs);
  nlohmann::json out = {{"bench", "bench_l2_flush"}, {"device", prop.name}, {"runs", runs}};
  for (const catalog::Point& p : points) {
    StatusOr<std::vector<Row>> rows = MeasureCase(p, prop, t, runs);
    if (!rows.ok()) {
      std::fprintf(stderr, "%s\n", rows.status().ToString().c_str());
      return 1;
    }
    for (const Row& r : *rows) {
      std::printf("%-58s %-20s event %8.2f us  kernel %8.2f us  ratio %.3f", r.key.c_str(),
                  r.method.c_str(), r.event_median * 1e6, r.kernel_median * 1e6,
                  r.kernel_median > 0 ? r.event_median / r.kernel_median : 0.0);
      if (r.untraced_event_median > 0) {
        std::printf("  untraced/traced %.4f", r.untraced_event_median / r.event_median);
      }
      std::printf("\n");
      out["rows"].push_back({{"case", r.key},
                             {"kernel", r.kernel},
                             {"method", r.method},
                             {"event_median_seconds", r.event_median},
                             {"kernel_median_seconds", r.kernel_median},
                             {"untraced_event_median_seconds", r.untraced_event_median}});
    }
  }
  if (!json_path.empty()) {
    std::ofstream f(json_path);
    f << out.dump(2) << "\n";
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", json_path.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace
}  // namespace warpwatch::bench

int main(int argc, char** argv) { return warpwatch::bench::Main(argc, argv); }
