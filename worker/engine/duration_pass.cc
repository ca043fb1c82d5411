// Kernel durations and names from CUPTI activity records.
#include "worker/engine/duration_pass.h"

#include <vector>

#include "worker/profiler/kernel_name.h"
#include "worker/profiler/kernel_trace.h"
#include "worker/profiler/kernel_tracer.h"
#include "worker/stats/sample_stats.h"
#include "worker/stats/time_agreement.h"

namespace warpwatch::worker {

Status RunDurationPass(CaseSampler& sampler, int samples, const std::string& stamp_symbol,
                       const std::vector<std::string>& foreign_symbols, v1::Measurement* m,
                       std::vector<std::string>* launch_symbols) {
  ASSIGN_OR_RETURN(KernelTracer * tracer, KernelTracer::Get());
  RETURN_IF_ERROR(tracer->Start());
  Status sampled = OkStatus();
  std::vector<double> events;
  for (int i = 0; i < samples && sampled.ok(); ++i) {
    StatusOr<double> e = sampler.TakeSample();
    if (e.ok()) {
      events.push_back(*e);
    } else {
      sampled = e.status();
    }
  }
  StatusOr<std::vector<KernelRecord>> records = tracer->Stop();
  RETURN_IF_ERROR(sampled.Annotate("duration pass"));
  if (!records.ok()) return records.status();
  KernelTrace trace =
      SplitSamples(WithoutKernels(std::move(*records), foreign_symbols), stamp_symbol);
  if (trace.kernels.empty()) {
    return NotFoundError("the timed region launches no kernel (nothing for CUPTI to time)");
  }
  if (launch_symbols != nullptr) *launch_symbols = trace.launch_symbols;
  m->clear_kernels();
  for (const TracedKernel& k : trace.kernels) {
    KernelName name = NameKernel(k.symbol);
    v1::KernelInfo* info = m->add_kernels();
    info->set_name(name.name);
    info->set_demangled(name.demangled);
    info->set_mangled(name.mangled);
    info->set_median_seconds(Percentile(k.seconds, 50));
    info->set_launches(k.launches_per_sample);
  }
  m->set_kernel_name(m->kernels(0).name());
  m->clear_sample_kernel_seconds();
  for (double s : trace.span_seconds) m->add_sample_kernel_seconds(s);
  const double kernel_median = Percentile(trace.span_seconds, 50);
  m->set_kernel_median_seconds(kernel_median);
  const double event_median = Percentile(events, 50);
  m->set_traced_event_median_seconds(event_median);
  m->set_tracing_cost(TracingCost(m->stats().median(), event_median));
  // Every traced sample gave one span (every Run launched a kernel): the kernels' time is whole.
  if (trace.span_seconds.size() == events.size()) {
    TimeAgreement a = CompareWithKernels(m->stats().median(), event_median, kernel_median);
    m->set_event_kernel_gap(a.gap);
    m->set_times_disagree(a.disagree);
  }
  return OkStatus();
}

}  // namespace warpwatch::worker
