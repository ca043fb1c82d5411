// File: common/report/markdown_report.cc
#include "common/report/markdown_report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "common/catalog/catalog.h"
#include "common/report/format.h"
#include "common/report/lesson_verdict.h"
#include "common/report/suite_time.h"

namespace warpwatch::report {
namespace {

using Params = google::protobuf::Map<std::string, int64_t>;

std::string ParamsText(const Params& params) {
  std::map<std::string, int64_t> sorted(params.begin(), params.end());
  std::string out;
  for (const auto& [k, v] : sorted) {
    if (!out.empty()) out += " ";
    out += k + "=" + std::to_string(v);
  }
  return out.empty() ? "-" : out;
}

// True when every axis both points have is equal: the recommended variant may lack an axis that
// only the slow variant has (a stride), and then still is the point to compare with.
bool SameSharedParams(const Params& a, const Params& b) {
  for (const auto& [k, v] : a) {
    auto it = b.find(k);
    if (it != b.end() && it->second != v) return false;
  }
  return true;
}

const char* LimiterName(v1::OccupancyLimiter limiter) {
  switch (limiter) {
    case v1::OCCUPANCY_LIMITER_WARPS:
      return "warps";
    case v1::OCCUPANCY_LIMITER_REGISTERS:
      return "registers";
    case v1::OCCUPANCY_LIMITER_SHARED_MEMORY:
      return "shared memory";
    case v1::OCCUPANCY_LIMITER_BLOCKS:
      return "blocks";
    default:
      return "-";
  }
}

std::string Escape(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

void RenderEnvironment(const v1::RunEnvironment& env, std::ostringstream& out) {
  const v1::Device& d = env.device();
  out << "## Environment\n\n| | |\n|---|---|\n";
  out << "| GPU | " << Escape(d.name()) << " (" << d.uuid() << ") |\n";
  out << "| compute capability | " << d.compute_capability_major() << "."
      << d.compute_capability_minor() << ", " << d.sm_count() << " SMs |\n";
  out << "| memory | " << FormatFixed(d.memory_bytes() / 1073741824.0, 1) << " GiB, "
      << d.memory_bus_width_bits() << "-bit, theoretical "
      << FormatFixed(d.theoretical_bandwidth_bytes_per_second() / 1e9, 0) << " GB/s |\n";
  out << "| L2 | " << FormatFixed(d.l2_bytes() / 1048576.0, 0) << " MiB |\n";
  out << "| max clocks | SM " << d.max_sm_clock_mhz() << " MHz, memory " << d.max_memory_clock_mhz()
      << " MHz |\n";
  out << "| driver / CUDA | " << env.driver_version() << " / driver API "
      << env.cuda_driver_version() << ", runtime " << env.cuda_runtime_version() << " |\n";
  out << "| at start | SM " << env.sm_clock_mhz_start() << " MHz, "
      << FormatFixed(env.temperature_c_start(), 0) << " C, " << FormatFixed(env.power_w_start(), 0)
      << " W |\n";
  out << "| at end | " << FormatFixed(env.temperature_c_end(), 0) << " C, "
      << FormatFixed(env.power_w_end(), 0) << " W |\n";
  out << "| clock source | " << (env.clock_source().empty() ? "-" : env.clock_source()) << " |\n";
  out << "| worker / suite | " << env.worker_version() << " / " << env.suite_version() << " |\n";
  if (!env.counters_note().empty()) out << "| counters | " << Escape(env.counters_note()) << " |\n";
  out << "\n";
}

// Index of the recommended variant's measurement to compare `m` with, or -1.
int FindRecommended(const std::vector<const v1::Measurement*>& rows, const v1::Measurement& m,
                    const std::string& recommended) {
  for (size_t i = 0; i < rows.size(); ++i) {
    const v1::Measurement& r = *rows[i];
    if (r.case_().variant() == recommended && r.status() == v1::POINT_STATUS_OK &&
        SameSharedParams(m.case_().params(), r.case_().params())) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

void RenderFamily(const catalog::FamilyInfo* info, const std::string& family,
                  std::vector<const v1::Measurement*> rows, const ReportOptions& options,
                  std::ostringstream& out) {
  std::string recommended;
  std::set<std::string> references;
  std::map<std::string, int> variant_order;
  if (info != nullptr) {
    for (size_t i = 0; i < info->variants.size(); ++i) {
      variant_order[info->variants[i].name] = static_cast<int>(i);
      if (info->variants[i].recommended) recommended = info->variants[i].name;
      if (info->variants[i].reference) references.insert(info->variants[i].name);
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [&](const auto* a, const auto* b) {
    auto oa =
        variant_order.count(a->case_().variant()) ? variant_order[a->case_().variant()] : 1 << 20;
    auto ob =
        variant_order.count(b->case_().variant()) ? variant_order[b->case_().variant()] : 1 << 20;
    return oa < ob;
  });
  std::set<std::string> counter_names;
  bool any_flops = false;
  for (const auto* m : rows) {
    for (const auto& [name, value] : m->counters()) counter_names.insert(name);
    if (m->gflops() > 0) any_flops = true;
  }
  out << "## " << family;
  if (info != nullptr) out << " (guide " << info->guide_section << ")\n\n> " << info->lesson;
  out << "\n\n";
  if (info != nullptr && !info->timed_region.empty()) {
    out << "Timed region: " << info->timed_region
        << ". The \"CUPTI kernel\" column is the kernels' own share of it.\n\n";
  }
  const std::string verdict = LessonVerdict(rows, recommended, references);
  if (!verdict.empty()) out << verdict << "\n\n";
  auto note = options.notes.find(family);
  if (note != options.notes.end()) out << note->second << "\n\n";
  auto charts = options.charts.find(family);
  if (charts != options.charts.end()) {
    for (const auto& [alt, link] : charts->second)
      out << "![" << Escape(alt) << "](" << link << ")\n\n";
  }
  if (!recommended.empty()) {
    out << "Recommended variant: `" << recommended
        << "`; \"time vs rec.\" is each point's median time divided by the recommended variant's "
           "at the same shared parameters.\n\n";
  }
  out << "| variant | params | kernel | median | CUPTI kernel | GB/s | % peak BW |";
  if (any_flops) out << " GFLOP/s |";
  out << " time vs rec. | occupancy th. / ach. | limiter | regs | smem B | local B | samples | "
         "stop | throttled |";
  for (const auto& c : counter_names) out << " " << c << " |";
  out << " status |\n|";
  int columns = 16 + (any_flops ? 1 : 0) + static_cast<int>(counter_names.size());
  for (int i = 0; i < columns; ++i) out << "---|";
  out << "\n";
  for (const auto* mp : rows) {
    const v1::Measurement& m = *mp;
    const v1::Occupancy& o = m.occupancy();
    bool ok = m.status() == v1::POINT_STATUS_OK;
    int rec = ok ? FindRecommended(rows, m, recommended) : -1;
    std::string vs =
        rec < 0 ? "-" : FormatFixed(m.stats().median() / rows[rec]->stats().median(), 2) + "x";
    std::string kernel = m.kernel_name().empty() ? "-" : "`" + Escape(m.kernel_name()) + "`";
    if (m.kernels_size() > 1) kernel += " +" + std::to_string(m.kernels_size() - 1);
    std::string cupti =
        m.kernel_median_seconds() > 0 ? FormatSeconds(m.kernel_median_seconds()) : "-";
    if (m.times_disagree()) cupti += " (disagrees)";
    out << "| " << m.case_().variant() << " | " << ParamsText(m.case_().params()) << " | " << kernel
        << " | " << (ok ? FormatSeconds(m.stats().median()) : "-") << " | " << cupti << " | "
        << (ok ? FormatFixed(m.gbps(), 1, true) : "-") << " | "
        << (ok ? FormatPercent(m.pct_of_peak_bandwidth()) : "-") << " |";
    if (any_flops) out << " " << (ok ? FormatFixed(m.gflops(), 1, true) : "-") << " |";
    std::string occupancy = o.block_size() > 0 ? FormatPercent(o.theoretical()) : "-";
    occupancy += " / ";
    occupancy += o.has_achieved() ? FormatPercent(o.achieved()) : "-";
    out << " " << vs << " | " << occupancy << " | " << LimiterName(o.limiter()) << " | "
        << (o.block_size() > 0 ? std::to_string(o.registers_per_thread()) : "-") << " | "
        << (o.block_size() > 0 ? std::to_string(o.static_shared_bytes() + o.dynamic_shared_bytes())
                               : "-")
        << " | " << (o.block_size() > 0 ? std::to_string(o.local_bytes_per_thread()) : "-") << " | "
        << (m.sample_count() > 0 ? m.sample_count() : m.samples_seconds_size()) << " | " << (m.stop_reason().empty() ? "-" : m.stop_reason())
        << " | " << (ok ? FormatPercent(m.throttled_fraction()) : "-") << " |";
    for (const auto& c : counter_names) {
      auto it = m.counters().find(c);
      // Counts (sums of sectors, requests, conflicts) read best without decimals.
      std::string value = it == m.counters().end()               ? "-"
                          : std::floor(it->second) == it->second ? FormatFixed(it->second, 0)
                                                                 : FormatFixed(it->second, 2);
      out << " " << value << " |";
    }
    std::string status =
        ok ? "ok" : (m.status() == v1::POINT_STATUS_SKIPPED ? "skipped: " : "FAILED: ");
    if (!ok) status += Escape(m.error());
    out << " " << status << " |\n";
  }
  out << "\n";
}

}  // namespace

std::map<std::string, std::string> ParseNotes(const std::string& markdown) {
  std::map<std::string, std::string> notes;
  std::istringstream in(markdown);
  std::string line;
  std::string family;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) {
      family = line.substr(3);
      while (!family.empty() && family.back() == ' ') family.pop_back();
      continue;
    }
    if (family.empty()) continue;
    std::string& text = notes[family];
    if (text.empty() && line.empty()) continue;
    text += line + "\n";
  }
  for (auto& [name, text] : notes) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  }
  return notes;
}

std::string RenderMarkdown(const v1::RunResult& run, const ReportOptions& options) {
  std::ostringstream out;
  out << "# " << options.title << "\n\n";
  if (!options.source.empty()) out << options.source << "\n\n";
  if (!run.command().empty()) out << "Measured with `" << run.command() << "`.\n\n";
  RenderEnvironment(run.environment(), out);
  out << RenderTargets(options.targets);
  out << RenderSuiteTime(run);

  std::map<std::string, std::vector<const v1::Measurement*>> by_family;
  for (const auto& m : run.measurements()) by_family[m.case_().family()].push_back(&m);
  // Catalog order first, then any family the catalog does not know (an older or newer suite).
  std::vector<std::pair<std::string, std::set<std::string>>> not_run;
  auto render = [&](const catalog::FamilyInfo* info, const std::string& family,
                    const std::vector<const v1::Measurement*>& rows) {
    std::set<std::string> reasons;
    for (const auto* m : rows) {
      if (m->status() != v1::POINT_STATUS_SKIPPED) {
        return RenderFamily(info, family, rows, options, out);
      }
      reasons.insert(m->error());
    }
    not_run.emplace_back(family, std::move(reasons));
  };
  for (const auto& info : catalog::Families()) {
    auto it = by_family.find(info.name);
    if (it == by_family.end()) continue;
    render(&info, info.name, it->second);
    by_family.erase(it);
  }
  for (const auto& [family, rows] : by_family) render(nullptr, family, rows);
  if (!not_run.empty()) {
    out << "## Families with no point measured\n\n";
    for (const auto& [family, reasons] : not_run) {
      out << "- " << family << ": skipped (";
      bool first = true;
      for (const auto& r : reasons) {
        out << (first ? "" : "; ") << Escape(r);
        first = false;
      }
      out << ")\n";
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace warpwatch::report
