// Whether a family's lesson shows in one run: the recommended variant should be the fastest at
// every set of shared parameters. A sentence for the report, with the exceptions named.
#ifndef WARPWATCH_COMMON_REPORT_LESSON_VERDICT_H_
#define WARPWATCH_COMMON_REPORT_LESSON_VERDICT_H_

#include <set>
#include <string>
#include <vector>

#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::report {

// A variant within this share of the recommended one's median counts as a tie, not an exception
// (two runs of the same point move by up to ~2 % on an H100, docs/noise.md).
inline constexpr double kLessonTolerance = 0.02;

// `rows`: the family's measurements (any status); `recommended`: its recommended variant ("" when
// the catalog names none); `references`: variants that are ceilings to measure against (cudaMemcpy,
// CUB, a plain copy), never rivals: they are not judged. Returns "" when nothing can be judged
// (no recommended variant, or no other variant measured next to it).
std::string LessonVerdict(const std::vector<const v1::Measurement*>& rows,
                          const std::string& recommended,
                          const std::set<std::string>& references = {});

}  // namespace warpwatch::report

#endif  // WARPWATCH_COMMON_REPORT_LESSON_VERDICT_H_
