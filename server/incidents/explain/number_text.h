// File: server/incidents/explain/number_text.h
// Numbers and changes as the explanation's plain words print them.
#ifndef WARPWATCH_SERVER_INCIDENTS_EXPLAIN_NUMBER_TEXT_H_
#define WARPWATCH_SERVER_INCIDENTS_EXPLAIN_NUMBER_TEXT_H_

#include <string>

namespace warpwatch::server::incidents {

// Shortest plain form, at most 4 significant digits: 1980, 0.75, 1.2e-05.
std::string NumberText(double value);
// A ratio as percent: 0.75 -> "75 %".
std::string PercentText(double ratio);
// A relative change with its sign: 0.061 -> "+6.1 %", -0.02 -> "-2.0 %".
std::string ChangeText(double change);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_EXPLAIN_NUMBER_TEXT_H_
