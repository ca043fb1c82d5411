// The lesson verdict of one family.
#include "common/report/lesson_verdict.h"

#include <map>

#include "common/report/format.h"

namespace warpwatch::report {
namespace {

// Shared axes equal (an axis only one side has does not count).
bool SameShared(const v1::Measurement& a, const v1::Measurement& b) {
  for (const auto& [k, v] : a.case_().params()) {
    auto it = b.case_().params().find(k);
    if (it != b.case_().params().end() && it->second != v) return false;
  }
  return true;
}

std::string LessonParamsText(const v1::Measurement& m) {
  std::map<std::string, int64_t> sorted(m.case_().params().begin(), m.case_().params().end());
  std::string out;
  for (const auto& [k, v] : sorted) out += (out.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return out;
}

}  // namespace

std::string LessonVerdict(const std::vector<const v1::Measurement*>& rows,
                          const std::string& recommended, const std::set<std::string>& references) {
  if (recommended.empty()) return "";
  int compared = 0;
  std::vector<std::string> exceptions;
  for (const v1::Measurement* m : rows) {
    if (m->status() != v1::POINT_STATUS_OK || m->case_().variant() == recommended ||
        references.count(m->case_().variant()) > 0) {
      continue;
    }
    const v1::Measurement* rec = nullptr;
    for (const v1::Measurement* r : rows) {
      if (r->status() == v1::POINT_STATUS_OK && r->case_().variant() == recommended &&
          SameShared(*m, *r)) {
        rec = r;
        break;
      }
    }
    if (rec == nullptr || rec->stats().median() <= 0) continue;
    ++compared;
    const double ratio = m->stats().median() / rec->stats().median();
    if (ratio < 1 - kLessonTolerance) {
      exceptions.push_back("`" + m->case_().variant() + "` at " + LessonParamsText(*m) + " (" +
                           FormatSeconds(m->stats().median()) + " vs " +
                           FormatSeconds(rec->stats().median()) + ")");
    }
  }
  if (compared == 0) return "";
  if (exceptions.empty()) {
    return "Lesson shows: `" + recommended + "` is the fastest (or within " +
           FormatFixed(kLessonTolerance * 100, 0) + " %) in all " + std::to_string(compared) +
           " comparisons.";
  }
  std::string out = "Lesson does not fully show: faster than `" + recommended + "` by more than " +
                    FormatFixed(kLessonTolerance * 100, 0) + " % in " +
                    std::to_string(exceptions.size()) + " of " + std::to_string(compared) +
                    " comparisons: ";
  for (size_t i = 0; i < exceptions.size(); ++i) out += (i ? "; " : "") + exceptions[i];
  return out + ".";
}

}  // namespace warpwatch::report
