// File: cli/format/incident_view.h
// Incidents and explanations for people: the incident list, one incident (its cause, a cases x
// GPUs table of changes, the explanation and the history), and one finding's explanation.
#ifndef WARPWATCH_CLI_FORMAT_INCIDENT_VIEW_H_
#define WARPWATCH_CLI_FORMAT_INCIDENT_VIEW_H_

#include <ostream>
#include <string>
#include <vector>

#include "warpwatch/v1/incident.pb.h"

namespace warpwatch::cli {

// "OPEN", "SOFTWARE", "SLOWDOWN": the enum names without their prefixes ("-" when unset).
std::string IncidentStateLabel(v1::IncidentState state);
std::string CauseClassLabel(v1::CauseClass cause_class);

void PrintIncidentTable(const std::vector<v1::Incident>& incidents, std::ostream& out);
void PrintIncident(const v1::Incident& incident, std::ostream& out);
// The explanation's parts: ranked causes with evidence, ruled out, environment, attributes,
// time and clock splits, counters (or why there are none).
void PrintExplanation(const v1::Explanation& explanation, std::ostream& out);
void PrintExplainedFinding(const v1::Regression& finding, std::ostream& out);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_INCIDENT_VIEW_H_
