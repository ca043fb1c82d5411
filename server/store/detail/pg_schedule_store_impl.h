// File: server/store/detail/pg_schedule_store_impl.h
// The PostgreSQL ScheduleStore's class, shared by its source files: pg_schedule_store.cc (open,
// schedule CRUD), pg_schedule_fire.cc (cron claim, manual trigger, fan-out), pg_schedule_runs.cc
// (run listing).
#ifndef WARPWATCH_SERVER_STORE_DETAIL_PG_SCHEDULE_STORE_IMPL_H_
#define WARPWATCH_SERVER_STORE_DETAIL_PG_SCHEDULE_STORE_IMPL_H_

#include <pqxx/pqxx>
#include <string>

#include "server/schedule/schedule_store.h"
#include "server/store/detail/connection_pool.h"
#include "server/store/detail/transact.h"
#include "server/store/pg_schedule_store.h"

namespace warpwatch::server::detail {

// Thread-safe: only the pool is mutable, and it is.
class PgScheduleStore : public schedule::ScheduleStore {
 public:
  explicit PgScheduleStore(const PgScheduleStoreOptions& options);

  StatusOr<v1::Schedule> CreateSchedule(const schedule::ScheduleWrite& write,
                                        const std::string& actor, int max_per_actor) override;
  StatusOr<v1::Schedule> GetSchedule(const std::string& name) override;
  StatusOr<schedule::SchedulePage> ListSchedules(int page_size,
                                                 const std::string& page_token) override;
  StatusOr<v1::Schedule> UpdateSchedule(const std::string& name, const Edit& edit,
                                        const std::string& actor) override;
  Status DeleteSchedule(const std::string& name, const Guard& guard) override;
  StatusOr<v1::ScheduleRun> TriggerSchedule(const std::string& name, const std::string& actor,
                                            const Guard& guard) override;
  StatusOr<schedule::ScheduleRunPage> ListScheduleRuns(
      const schedule::ScheduleRunQuery& query) override;
  StatusOr<std::optional<schedule::FireOutcome>> FireNextDue(absl::Time now,
                                                             const Decide& decide) override;

 private:
  template <typename T, typename Fn>
  StatusOr<T> Run(const std::string& what, Fn&& fn) {
    return Transact<T>(pool_, what, std::forward<Fn>(fn));
  }

  const std::chrono::milliseconds online_window_;
  ConnectionPool pool_;
};

// One fire of schedule `schedule_id` in `tx`: inserts the schedule_run (ON CONFLICT on the cron
// due time: nothing, and run id 0 is returned) and, unless `skipped_reason` is set, one QUEUED job
// per GPU matching `schedule` of a worker seen within `online_window` (recorded SKIPPED "no
// matching GPU" when there is none), notifying long-polls. Returns the run id and the job count.
struct FireRows {
  int64_t run_id = 0;
  int jobs = 0;
  std::string skipped_reason;
};
StatusOr<FireRows> InsertFire(pqxx::work& tx, const v1::Schedule& schedule, int64_t points_total,
                              int64_t due_micros, bool manual, const std::string& actor,
                              const std::string& skipped_reason,
                              std::chrono::milliseconds online_window);

// Whether the latest FIRED run of the schedule has a QUEUED or RUNNING job.
bool PreviousRunActive(pqxx::work& tx, int64_t schedule_id);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_PG_SCHEDULE_STORE_IMPL_H_
