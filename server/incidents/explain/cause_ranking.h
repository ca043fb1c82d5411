// File: server/incidents/explain/cause_ranking.h
// The likely causes of one finding in plain words, ranked, from the differences its explanation
// holds (docs/incidents.md "Ranked causes").
#ifndef WARPWATCH_SERVER_INCIDENTS_EXPLAIN_CAUSE_RANKING_H_
#define WARPWATCH_SERVER_INCIDENTS_EXPLAIN_CAUSE_RANKING_H_

#include "warpwatch/v1/explanation.pb.h"

namespace warpwatch::server::incidents {

// Fills explanation->causes (highest score first), summary and ruled_out from its environment,
// attribute, time, clock and counter parts, which must be set. Rules, by score:
//  - ENVIRONMENT 5: the new run was throttled, or the time moved and the cycles did not (clock);
//  - SOFTWARE 4 (+1 when kernel attributes changed, +0.5 when the cycles moved with the time): the
//    software differs (named field by field);
//  - ONE_GPU 4.5: the links between the node's GPUs differ (gpu_links: a lost NVLink, a pair
//    fallen back to PCIe), named pair by pair: the node's hardware, below a software change with
//    changed kernel attributes and above one without;
//  - SOFTWARE 3: kernel attributes changed with the software equal as recorded (the code changed
//    without a build label to say so);
//  - ENVIRONMENT 2: clock settings or a condition label (a co-tenant's test_contention_*) differ,
//    with the temperature and power readings as further evidence;
//  - UNKNOWN 1.5: the time around the kernels moved, the kernels' own time did not;
//  - UNKNOWN 1: nothing recorded differs but temperature or power readings: the GPU itself, or
//    something the store does not keep;
//  - ENVIRONMENT 0.5: only temperature or power readings differ. They swing between runs of a
//    healthy GPU (power at the start 81 to 219 W over one H100's nightly runs) and follow from the
//    work as much as they cause it: evidence, never the first cause.
// Evidence lists the attribute moves, the top three counter moves, and the time and cycle split.
void RankCauses(v1::Explanation* explanation);

// Software differences in one line, in the order of the fields: "driver_version 580.65 -> 590.12;
// labels.git_sha abc -> def". "" when the software is equal.
std::string SoftwareChange(const v1::Explanation& explanation);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_EXPLAIN_CAUSE_RANKING_H_
