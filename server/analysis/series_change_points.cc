// File: server/analysis/series_change_points.cc
#include "server/analysis/series_change_points.h"

namespace warpwatch::server::analysis {

StatusOr<std::vector<StoredChangePoint>> SeriesChangePoints(
    const std::vector<SeriesPoint>& points, const detect::ChangePointConfig& config) {
  const size_t first = points.size() > config.max_points ? points.size() - config.max_points : 0;
  std::vector<double> medians;
  medians.reserve(points.size() - first);
  for (size_t i = first; i < points.size(); ++i) medians.push_back(points[i].point.median_seconds);
  ASSIGN_OR_RETURN(std::vector<detect::ChangePoint> found,
                   detect::FindChangePoints(medians, config));
  std::vector<StoredChangePoint> stored;
  stored.reserve(found.size());
  for (const detect::ChangePoint& c : found) {
    const SeriesPoint& at = points[first + c.index];
    StoredChangePoint s;
    s.run_id = at.point.run_id;
    s.at_micros = at.started_at_micros;
    s.median_before = c.median_before;
    s.median_after = c.median_after;
    s.relative_change = c.relative_change;
    s.p_value = c.p_value;
    s.q_hat = c.q_hat;
    stored.push_back(s);
  }
  return stored;
}

}  // namespace warpwatch::server::analysis
