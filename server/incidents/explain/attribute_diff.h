// File: server/incidents/explain/attribute_diff.h
// What differs in the kernel's own attributes (registers, spills, shared memory, launch shape,
// occupancy and its limiter) between a finding's baseline measurements and its new one.
#ifndef WARPWATCH_SERVER_INCIDENTS_EXPLAIN_ATTRIBUTE_DIFF_H_
#define WARPWATCH_SERVER_INCIDENTS_EXPLAIN_ATTRIBUTE_DIFF_H_

#include <vector>

#include "warpwatch/v1/explanation.pb.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::incidents {

// The attributes of `now` not equal to every baseline measurement's, in the order of
// AttributeDifference.attribute's list. Integers compare exactly; theoretical occupancy beyond
// 0.5 percentage points; achieved occupancy (a counter, noisy) beyond 2 points and only when both
// sides have it. A measurement without occupancy data (no `occupancy`, as some failed points) is
// left out of the baseline; none left gives nothing.
std::vector<v1::AttributeDifference> DiffAttributes(const std::vector<v1::Measurement>& baseline,
                                                    const v1::Measurement& now);

// "registers", "shared memory", ... as people say them: "registers_per_thread" -> "registers per
// thread". Used by the ranked causes.
std::string AttributeWords(const v1::AttributeDifference& d);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_EXPLAIN_ATTRIBUTE_DIFF_H_
