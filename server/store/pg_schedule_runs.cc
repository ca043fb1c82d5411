// File: server/store/pg_schedule_runs.cc
// ListScheduleRuns: a schedule's runs newest first, each with its per-GPU jobs and findings.
#include <pqxx/pqxx>

#include "server/store/detail/page_token.h"
#include "server/store/detail/pg_schedule_store_impl.h"
#include "server/store/detail/schedule_row.h"

namespace warpwatch::server::detail {

StatusOr<schedule::ScheduleRunPage> PgScheduleStore::ListScheduleRuns(
    const schedule::ScheduleRunQuery& query) {
  FilterFingerprint fingerprint;
  fingerprint.Add("schedule_runs").Add(query.name);
  fingerprint.Add(query.due_from ? ToMicros(*query.due_from) : -1);
  fingerprint.Add(query.due_until ? ToMicros(*query.due_until) : -1);
  int64_t before_id = 0;  // 0: the first page
  if (!query.page_token.empty()) {
    ASSIGN_OR_RETURN(std::vector<std::string> position,
                     DecodePageToken(query.page_token, fingerprint, 1));
    ASSIGN_OR_RETURN(before_id, PositiveIdFromPart(position[0]));
  }
  using Page = schedule::ScheduleRunPage;
  return Run<Page>("ListScheduleRuns", [&](pqxx::work& tx) -> StatusOr<Page> {
    pqxx::result s = tx.exec_params("SELECT id FROM schedule WHERE name = $1", query.name);
    if (s.empty()) return NotFoundError("schedule \"" + query.name + "\" not found");
    pqxx::result r = tx.exec_params(
        "SELECT " + ScheduleRunColumns() +
            " FROM schedule_run r JOIN schedule s ON s.id = r.schedule_id"
            " WHERE r.schedule_id = $1"
            "   AND (NOT $2::boolean OR r.due_at >= 'epoch'::timestamptz + $3::bigint * interval "
            "'1 microsecond')"
            "   AND (NOT $4::boolean OR r.due_at < 'epoch'::timestamptz + $5::bigint * interval "
            "'1 microsecond')"
            "   AND ($6::bigint = 0 OR r.id < $6::bigint)"
            " ORDER BY r.id DESC LIMIT $7",
        s[0][0].as<int64_t>(), query.due_from.has_value(),
        query.due_from ? ToMicros(*query.due_from) : 0, query.due_until.has_value(),
        query.due_until ? ToMicros(*query.due_until) : 0, before_id, query.page_size + 1);
    Page page;
    for (size_t i = 0; i < r.size() && static_cast<int>(i) < query.page_size; ++i) {
      page.runs.push_back(ScheduleRunFromRow(r[i]));
    }
    std::vector<v1::ScheduleRun*> runs;
    for (v1::ScheduleRun& run : page.runs) runs.push_back(&run);
    ReadScheduleRunJobs(tx, runs);  // one query for the page
    if (static_cast<int>(r.size()) > query.page_size) {
      page.next_page_token =
          EncodePageToken({std::to_string(page.runs.back().id())}, fingerprint);
    }
    return page;
  });
}

}  // namespace warpwatch::server::detail
