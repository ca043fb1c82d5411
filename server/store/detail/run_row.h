// File: server/store/detail/run_row.h
// The run table <-> v1::Run (with its environment and measurement count).
#ifndef WARPWATCH_SERVER_STORE_DETAIL_RUN_ROW_H_
#define WARPWATCH_SERVER_STORE_DETAIL_RUN_ROW_H_

#include <pqxx/row>
#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::detail {

// The select list RunFromRow reads, for the run table aliased `r`
// ("SELECT " + RunColumns() + " FROM run r WHERE ..."). Counts the run's measurements.
const std::string& RunColumns();

// Decodes a row selected with RunColumns(). The environment is the stored one; when a run has
// none yet (no upload), its device uuid and model come from the run's columns.
StatusOr<v1::Run> RunFromRow(const pqxx::row& row);

// run.analysis_state and run.analysis_coverage (the JSON the analysis stores; '' before it ran)
// into `coverage`. INTERNAL when the JSON is not an object.
Status CoverageFromJson(const std::string& state, const std::string& json,
                        v1::AnalysisCoverage* coverage);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_RUN_ROW_H_
