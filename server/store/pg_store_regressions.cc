// File: server/store/pg_store_regressions.cc
// Regressions for ResultService: listing with filters (keyset paging on id, newest first) and
// triage transitions recorded with who made them. The detector (server/analysis/) writes them.
#include <algorithm>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/page_token.h"
#include "server/store/detail/pg_store_impl.h"
#include "server/store/detail/regression_row.h"

namespace warpwatch::server::detail {
namespace {

// Sorted, distinct names; INVALID_ARGUMENT naming the field for an unknown value.
template <typename Enum, typename NameFn>
StatusOr<std::vector<std::string>> Names(const std::vector<Enum>& values, NameFn name,
                                         const char* field) {
  std::vector<std::string> names;
  for (Enum v : values) {
    std::string n = name(v);
    if (n.empty()) {
      return InvalidArgumentError(std::string(field) + ": unknown value " +
                                  std::to_string(static_cast<int>(v)));
    }
    names.push_back(std::move(n));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

bool AllowedTransition(v1::RegressionState from, v1::RegressionState to) {
  const bool to_closed = to == v1::REGRESSION_STATE_DISMISSED || to == v1::REGRESSION_STATE_FIXED ||
                         to == v1::REGRESSION_STATE_ACCEPTED;
  if (from == v1::REGRESSION_STATE_OPEN) {
    return to_closed || to == v1::REGRESSION_STATE_ACKNOWLEDGED;
  }
  return from == v1::REGRESSION_STATE_ACKNOWLEDGED && to_closed;
}

}  // namespace

StatusOr<RegressionPage> PgStore::ListRegressions(const RegressionFilter& filter) {
  const int page_size = EffectivePageSize(filter.page_size, kRegressionPageSizes);
  ASSIGN_OR_RETURN(std::vector<std::string> states,
                   Names(filter.states, RegressionStateName, "states"));
  ASSIGN_OR_RETURN(std::vector<std::string> kinds,
                   Names(filter.kinds, RegressionKindName, "kinds"));
  FilterFingerprint fingerprint;
  fingerprint.Add("regressions").Add(static_cast<int64_t>(states.size()));
  for (const std::string& s : states) fingerprint.Add(s);
  fingerprint.Add(static_cast<int64_t>(kinds.size()));
  for (const std::string& k : kinds) fingerprint.Add(k);
  fingerprint.Add(filter.gpu_model).Add(filter.family).Add(filter.device_uuid).Add(filter.run_id);
  int64_t before_id = 0;
  if (!filter.page_token.empty()) {
    ASSIGN_OR_RETURN(std::vector<std::string> position,
                     DecodePageToken(filter.page_token, fingerprint, 1));
    ASSIGN_OR_RETURN(before_id, PositiveIdFromPart(position[0]));
  }
  const std::string states_array = TextArrayLiteral(states);
  const std::string kinds_array = TextArrayLiteral(kinds);
  return Run<RegressionPage>("ListRegressions", [&](pqxx::work& tx) -> StatusOr<RegressionPage> {
    pqxx::result r = tx.exec_params(
        "SELECT " + RegressionColumns() +
            " FROM regression g"
            " WHERE (cardinality($1::text[]) = 0 OR g.state = ANY($1::text[]))"
            "   AND (cardinality($2::text[]) = 0 OR g.kind = ANY($2::text[]))"
            "   AND ($3::text = '' OR g.gpu_model = $3)"
            "   AND ($4::text = '' OR g.family = $4)"
            "   AND ($5::text = '' OR g.device_uuid = $5)"
            "   AND ($6::bigint = 0 OR g.run_id = $6)"
            "   AND ($7::bigint = 0 OR g.id < $7)"
            " ORDER BY g.id DESC LIMIT $8",
        states_array, kinds_array, filter.gpu_model, filter.family, filter.device_uuid,
        filter.run_id, before_id, page_size + 1);
    RegressionPage page;
    for (size_t i = 0; i < r.size() && static_cast<int>(i) < page_size; ++i) {
      ASSIGN_OR_RETURN(v1::Regression g, RegressionFromRow(r[i]));
      page.regressions.push_back(std::move(g));
    }
    if (static_cast<int>(r.size()) > page_size) {
      page.next_page_token =
          EncodePageToken({std::to_string(page.regressions.back().id())}, fingerprint);
    }
    return page;
  });
}

StatusOr<v1::Regression> PgStore::UpdateRegression(int64_t id, v1::RegressionState to,
                                                   const std::string& note,
                                                   const std::string& actor) {
  if (to != v1::REGRESSION_STATE_ACKNOWLEDGED && to != v1::REGRESSION_STATE_DISMISSED &&
      to != v1::REGRESSION_STATE_FIXED && to != v1::REGRESSION_STATE_ACCEPTED) {
    const std::string name = RegressionStateName(to);
    return InvalidArgumentError("state: " + (name.empty() ? std::to_string(to) : name) +
                                " is not a triage state (ACKNOWLEDGED, DISMISSED, FIXED or "
                                "ACCEPTED)");
  }
  const std::string to_name = RegressionStateName(to);
  return Run<v1::Regression>("UpdateRegression", [&](pqxx::work& tx) -> StatusOr<v1::Regression> {
    pqxx::result r =
        tx.exec_params("SELECT state, kind FROM regression WHERE id = $1 FOR UPDATE", id);
    if (r.empty()) return NotFoundError("regression " + std::to_string(id) + " not found");
    const std::string from_name = r[0][0].as<std::string>();
    if (!AllowedTransition(RegressionStateFromName(from_name), to)) {
      return FailedPreconditionError(
          "regression " + std::to_string(id) + " is " + from_name + ": cannot go " + from_name +
          " -> " + to_name +
          " (triage moves OPEN -> ACKNOWLEDGED, DISMISSED, FIXED or ACCEPTED, and ACKNOWLEDGED "
          "-> DISMISSED, FIXED or ACCEPTED)");
    }
    if (to == v1::REGRESSION_STATE_ACCEPTED && r[0][1].as<std::string>() == "OUTLIER") {
      return FailedPreconditionError("regression " + std::to_string(id) +
                                     " is a fleet OUTLIER: it has no level of its own to accept "
                                     "(only a REGRESSION or IMPROVEMENT can be ACCEPTED)");
    }
    pqxx::result updated = tx.exec_params(
        "UPDATE regression g SET state = $2, note = $3, updated_by = $4, updated_at = now()"
        " WHERE g.id = $1 RETURNING " +
            RegressionColumns(),
        id, to_name, note, actor);
    tx.exec_params(
        "INSERT INTO regression_event (regression_id, from_state, to_state, actor, note)"
        " VALUES ($1, $2, $3, $4, $5)",
        id, from_name, to_name, actor, note);
    return RegressionFromRow(updated.at(0));
  });
}

}  // namespace warpwatch::server::detail
