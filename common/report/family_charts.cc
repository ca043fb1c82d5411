// File: common/report/family_charts.cc
#include "common/report/family_charts.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

#include "common/catalog/catalog.h"

namespace warpwatch::report {
namespace {

using Measurements = std::vector<const v1::Measurement*>;
using ChartParams = std::map<std::string, int64_t>;

ChartParams ParamsOf(const v1::Measurement& m) {
  return ChartParams(m.case_().params().begin(), m.case_().params().end());
}

bool Ok(const v1::Measurement& m) {
  return m.status() == v1::POINT_STATUS_OK && m.stats().median() > 0;
}

std::string Fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// "12.3 us" / "1.23 ms": the unit the value reads best in.
std::string TimeText(double seconds) {
  if (seconds >= 1e-3) return Fixed(seconds * 1e3, seconds >= 1e-2 ? 1 : 2) + " ms";
  return Fixed(seconds * 1e6, seconds >= 1e-4 ? 0 : 1) + " us";
}

// The axes whose value differs between the family's OK points: the only ones a label needs.
std::set<std::string> VaryingAxes(const Measurements& rows) {
  std::map<std::string, std::set<int64_t>> seen;
  for (const auto* m : rows) {
    for (const auto& [k, v] : m->case_().params()) seen[k].insert(v);
  }
  std::set<std::string> out;
  for (const auto& [k, values] : seen) {
    if (values.size() > 1) out.insert(k);
  }
  return out;
}

std::string Label(const v1::Measurement& m, const std::set<std::string>& varying) {
  std::string label = m.case_().variant();
  for (const auto& [k, v] : ParamsOf(m)) {
    if (varying.count(k)) label += " " + k + "=" + std::to_string(v);
  }
  return label;
}

// Orders rows like the catalog lists the variants, then by params.
void SortLikeCatalog(const catalog::FamilyInfo* info, Measurements& rows) {
  std::map<std::string, size_t> order;
  if (info != nullptr) {
    for (size_t i = 0; i < info->variants.size(); ++i) order[info->variants[i].name] = i;
  }
  auto rank = [&](const v1::Measurement* m) {
    auto it = order.find(m->case_().variant());
    return it == order.end() ? order.size() : it->second;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const auto* a, const auto* b) {
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return ParamsOf(*a) < ParamsOf(*b);
  });
}

NamedChart TimeChart(const std::string& family, const catalog::FamilyInfo* info,
                     const Measurements& rows, const std::string& gpu) {
  std::string recommended;
  if (info != nullptr) {
    for (const auto& v : info->variants) {
      if (v.recommended) recommended = v.name;
    }
  }
  // One unit for the whole chart, from the largest median.
  double largest = 0;
  for (const auto* m : rows) largest = std::max(largest, m->stats().median());
  const bool ms = largest >= 1e-2;
  const double scale = ms ? 1e3 : 1e6;
  const std::set<std::string> varying = VaryingAxes(rows);
  NamedChart out;
  out.family = family;
  out.stem = family + "_time";
  for (char& c : out.stem) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  out.chart.title = family + ": median time per point" + (gpu.empty() ? "" : " on " + gpu);
  out.chart.axis_label = std::string("median time (") + (ms ? "ms" : "us") + "), shorter is faster";
  out.chart.footnote =
      "Whiskers: p10-p90 of the point's samples. Bold: the variant the guide recommends.";
  for (const auto* m : rows) {
    BarRow row;
    row.label = Label(*m, varying);
    row.highlight = !recommended.empty() && m->case_().variant() == recommended;
    BarValue v;
    v.value = m->stats().median() * scale;
    if (m->stats().p10() > 0 && m->stats().p90() >= m->stats().p10()) {
      v.low = m->stats().p10() * scale;
      v.high = m->stats().p90() * scale;
    }
    v.text = TimeText(m->stats().median());
    row.values.push_back(v);
    out.chart.rows.push_back(std::move(row));
  }
  return out;
}

// The point of `variant` at `params` (all the step's points share the same params).
const v1::Measurement* Find(const Measurements& rows, const std::string& variant,
                            const ChartParams& params) {
  for (const auto* m : rows) {
    if (m->case_().variant() == variant && ParamsOf(*m) == params) return m;
  }
  return nullptr;
}

// Reduce's step chart, at the params the most steps can be read at.
bool ReduceStepChart(const Measurements& rows, const std::string& gpu, NamedChart& out) {
  std::map<ChartParams, int> steps_at;
  for (const auto* m : rows) {
    for (const ReduceStep& s : ReduceSteps()) {
      if (m->case_().variant() == s.to && Find(rows, s.from, ParamsOf(*m)) != nullptr) {
        ++steps_at[ParamsOf(*m)];
      }
    }
  }
  if (steps_at.empty()) return false;
  const ChartParams params =
      std::max_element(steps_at.begin(), steps_at.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
      })->first;
  std::string at;
  for (const auto& [k, v] : params) at += (at.empty() ? "" : ", ") + k + "=" + std::to_string(v);
  out.family = "reduce";
  out.stem = "reduce_steps";
  out.chart.title = "reduce: speedup of each step of the book's sequence (" + at + ")";
  out.chart.axis_label = "step speedup (time before / time after), above 1 the step pays";
  out.chart.series = {gpu.empty() ? "this run" : gpu, "Harris's table (G80, 2^22 ints)"};
  out.chart.footnote =
      "Harris, Optimizing Parallel Reduction in CUDA (NVIDIA, 2007). No orange bar: the table "
      "has no such step. Unroll-last-warp starts there from 2 elements per thread, here from 8.";
  for (const ReduceStep& s : ReduceSteps()) {
    const v1::Measurement* from = Find(rows, s.from, params);
    const v1::Measurement* to = Find(rows, s.to, params);
    if (from == nullptr || to == nullptr) continue;
    BarRow row;
    row.label = std::string(s.to) + " (" + s.change + ")";
    const double speedup = from->stats().median() / to->stats().median();
    BarValue ours;
    ours.value = speedup;
    ours.text = Fixed(speedup, 2) + "x";
    row.values.push_back(ours);
    if (s.harris_speedup > 0) {
      BarValue book;
      book.value = s.harris_speedup;
      book.text = Fixed(s.harris_speedup, 2) + "x";
      row.values.push_back(book);
    } else {
      row.values.push_back(std::nullopt);
    }
    out.chart.rows.push_back(std::move(row));
  }
  return !out.chart.rows.empty();
}

// Theoretical and achieved occupancy over the block sizes of occupancy.block_size.
bool OccupancyChart(const Measurements& rows, const std::string& gpu, NamedChart& out) {
  Measurements sorted = rows;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
    return a->occupancy().block_size() < b->occupancy().block_size();
  });
  out.family = "occupancy.block_size";
  out.stem = "occupancy_block_size_occupancy";
  out.chart.title = "occupancy.block_size: occupancy against block size" +
                    (gpu.empty() ? std::string() : " on " + gpu);
  out.chart.axis_label = "occupancy (% of the SM's warps)";
  out.chart.series = {"theoretical (occupancy API)", "achieved (sm__warps_active)"};
  out.chart.footnote =
      "Achieved occupancy comes from the CUPTI counter pass; absent when not profiled.";
  for (const auto* m : sorted) {
    const v1::Occupancy& o = m->occupancy();
    if (o.block_size() <= 0) continue;
    BarRow row;
    row.label = m->case_().variant() + " block " + std::to_string(o.block_size()) + " (" +
                TimeText(m->stats().median()) + ")";
    BarValue theoretical;
    theoretical.value = o.theoretical() * 100;
    theoretical.text = Fixed(o.theoretical() * 100, 0) + " %";
    row.values.push_back(theoretical);
    if (o.has_achieved()) {
      BarValue achieved;
      achieved.value = o.achieved() * 100;
      achieved.text = Fixed(o.achieved() * 100, 0) + " %";
      row.values.push_back(achieved);
    } else {
      row.values.push_back(std::nullopt);
    }
    out.chart.rows.push_back(std::move(row));
  }
  return !out.chart.rows.empty();
}

}  // namespace

const std::vector<ReduceStep>& ReduceSteps() {
  // Harris's table: 8.054, 3.456, 1.722, 0.965, 0.536, 0.381, 0.268 ms for kernels 1-7.
  static const auto* steps = new std::vector<ReduceStep>{
      {"neighbored", "neighbored_less", "no divergent branch", 8.054 / 3.456},
      {"neighbored_less", "interleaved", "sequential addressing", 3.456 / 1.722},
      {"interleaved", "unrolling2", "first add during the load", 1.722 / 0.965},
      {"unrolling2", "unrolling4", "4 elements per thread", 0},
      {"unrolling4", "unrolling8", "8 elements per thread", 0},
      {"unrolling8", "unroll_warps8", "last warp unrolled", 0.965 / 0.536},
      {"unroll_warps8", "complete_unroll_warps8", "loop completely unrolled", 0.536 / 0.381},
      {"complete_unroll_warps8", "complete_unroll", "unrolled by a template", 0},
  };
  return *steps;
}

std::vector<NamedChart> FamilyCharts(const v1::RunResult& run) {
  std::map<std::string, Measurements> by_family;
  for (const auto& m : run.measurements()) {
    if (Ok(m)) by_family[m.case_().family()].push_back(&m);
  }
  const std::string gpu = run.environment().device().name();
  std::vector<NamedChart> out;
  auto add = [&](const std::string& family, const catalog::FamilyInfo* info, Measurements rows) {
    SortLikeCatalog(info, rows);
    out.push_back(TimeChart(family, info, rows, gpu));
    NamedChart extra;
    if (family == "reduce" && ReduceStepChart(rows, gpu, extra)) out.push_back(std::move(extra));
    if (family == "occupancy.block_size" && OccupancyChart(rows, gpu, extra)) {
      out.push_back(std::move(extra));
    }
  };
  for (const auto& info : catalog::Families()) {
    auto it = by_family.find(info.name);
    if (it == by_family.end()) continue;
    add(info.name, &info, it->second);
    by_family.erase(it);
  }
  for (const auto& [family, rows] : by_family) add(family, nullptr, rows);
  return out;
}

}  // namespace warpwatch::report
