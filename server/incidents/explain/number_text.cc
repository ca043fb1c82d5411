// File: server/incidents/explain/number_text.cc
#include "server/incidents/explain/number_text.h"

#include <cstdio>

namespace warpwatch::server::incidents {

std::string NumberText(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.4g", value);
  return buffer;
}

std::string PercentText(double ratio) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.0f %%", ratio * 100);
  return buffer;
}

std::string ChangeText(double change) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%+.1f %%", change * 100);
  return buffer;
}

}  // namespace warpwatch::server::incidents
