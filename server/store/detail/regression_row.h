// File: server/store/detail/regression_row.h
// The regression table <-> v1::Regression, and the vocabulary of its state, kind and blame
// columns (migration 0007).
#ifndef WARPWATCH_SERVER_STORE_DETAIL_REGRESSION_ROW_H_
#define WARPWATCH_SERVER_STORE_DETAIL_REGRESSION_ROW_H_

#include <pqxx/row>
#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server::detail {

// "OPEN", "SUSPECTED", ...; "" for UNSPECIFIED or an unknown value. Inverse: UNSPECIFIED.
std::string RegressionStateName(v1::RegressionState state);
v1::RegressionState RegressionStateFromName(const std::string& name);
// "REGRESSION", "IMPROVEMENT", "OUTLIER"; "" for UNSPECIFIED or unknown. Inverse: UNSPECIFIED.
std::string RegressionKindName(v1::RegressionKind kind);
v1::RegressionKind RegressionKindFromName(const std::string& name);
// "NONE", "CODE", "ENVIRONMENT" -> Blame (BLAME_UNSPECIFIED for anything else).
v1::Blame BlameFromName(const std::string& name);

// The select list RegressionFromRow reads, for the regression table aliased `g`.
const std::string& RegressionColumns();

// A finding's case key from its stored columns: params (and an empty variant) parsed from the
// canonical key, left empty when it does not parse.
void FillCaseKey(const std::string& canonical, const std::string& family,
                 const std::string& variant, v1::CaseKey* key);

// Decodes a row selected with RegressionColumns(). case.params are parsed from the canonical key
// (FillCaseKey).
StatusOr<v1::Regression> RegressionFromRow(const pqxx::row& row);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_REGRESSION_ROW_H_
