// File: server/schedule/schedule_store.h
// What schedules need from the database, and nothing else: schedule rows (CRUD), fires (a
// schedule_run and one job per matching GPU) and the scheduler's claim of due schedules.
// PostgreSQL implements it (server/store/pg_schedule_store.h); tests run it on a real PostgreSQL.
#ifndef WARPWATCH_SERVER_SCHEDULE_SCHEDULE_STORE_H_
#define WARPWATCH_SERVER_SCHEDULE_SCHEDULE_STORE_H_

#include <absl/time/time.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/schedule.pb.h"

namespace warpwatch::server::schedule {

// schedule_run.created_by of cron fires, and the job.submitted_by prefix of their jobs
// ("schedule:<name>").
inline constexpr const char* kSchedulerActor = "scheduler";
// schedule_run.skipped_reason values.
inline constexpr const char* kSkippedOverlap = "overlap";
inline constexpr const char* kSkippedMissed = "missed";
inline constexpr const char* kSkippedNoDevice = "no matching GPU";

// A schedule's writable fields, validated, with what the service derived from them.
struct ScheduleWrite {
  // name, cron, time_zone (never empty), job_template (empty selector), selector,
  // missed_fire_policy (never UNSPECIFIED), allow_overlap, enabled (set). Output fields ignored.
  v1::Schedule schedule;
  int64_t points_total = 0;  // points one job of the template expands to
  absl::Time next_fire_at;   // next cron due time
};

struct SchedulePage {
  std::vector<v1::Schedule> schedules;  // by name
  std::string next_page_token;          // empty on the last page
};

struct ScheduleRunQuery {
  std::string name;                     // the schedule; required
  std::optional<absl::Time> due_from;   // due_at >= due_from
  std::optional<absl::Time> due_until;  // due_at < due_until
  int page_size = 20;                   // already bounded by the caller
  std::string page_token;               // from a page of the same query
};

struct ScheduleRunPage {
  std::vector<v1::ScheduleRun> runs;  // newest (highest id) first, jobs filled
  std::string next_page_token;
};

// A due schedule as the scheduler's claim sees it, locked until its decision is applied.
struct DueSchedule {
  v1::Schedule schedule;       // next_fire_at <= now, enabled
  absl::Time next_fire_at;
  bool previous_run_active = false;  // the latest FIRED run still has a QUEUED or RUNNING job
};

// What to do with one due schedule. Applied in the claim's transaction.
struct FireDecision {
  absl::Time due_at;           // the due time the schedule_run records (trigger CRON)
  std::string skipped_reason;  // empty: fan out (one job per matching GPU); else a SKIPPED run
  absl::Time next_fire_at;     // the schedule's next due time afterwards
};

// What applying a decision did.
struct FireOutcome {
  std::string schedule_name;
  absl::Time due_at;
  int64_t schedule_run_id = 0;  // 0 when a run for this due time existed already (duplicate)
  int jobs = 0;                 // jobs created
  std::string skipped_reason;   // as recorded (may be kSkippedNoDevice though the decision fired)
};

// Thread-safe. Errors as the Store's (server/store/store.h): UNAVAILABLE, ABORTED, INTERNAL, plus
// the per-method codes below. Names are compared exactly.
class ScheduleStore {
 public:
  virtual ~ScheduleStore() = default;

  // ALREADY_EXISTS for a name in use. created_by = updated_by = actor. RESOURCE_EXHAUSTED
  // naming the limit when `actor` already created `max_per_actor` schedules (counted under a
  // lock on the actor, so concurrent creates cannot pass it together).
  virtual StatusOr<v1::Schedule> CreateSchedule(const ScheduleWrite& write,
                                                const std::string& actor, int max_per_actor) = 0;
  // NOT_FOUND for an unknown name.
  virtual StatusOr<v1::Schedule> GetSchedule(const std::string& name) = 0;
  // Keyset paging on name. INVALID_ARGUMENT for a bad token.
  virtual StatusOr<SchedulePage> ListSchedules(int page_size, const std::string& page_token) = 0;
  // Read-modify-write under the row's lock, so concurrent updates never lose each other: `edit`
  // gets the schedule as stored and returns what to store (its name must stay), or an error that
  // is returned as is. `edit` may run more than once (transaction retries). NOT_FOUND for an
  // unknown name. updated_by = actor.
  using Edit = std::function<StatusOr<ScheduleWrite>(const v1::Schedule& current)>;
  virtual StatusOr<v1::Schedule> UpdateSchedule(const std::string& name, const Edit& edit,
                                                const std::string& actor) = 0;
  // Whether the caller may act on the schedule as stored (read under the row's lock, so a name
  // deleted and created again in between is judged as it is now); its error is returned as is.
  using Guard = std::function<Status(const v1::Schedule& current)>;
  // NOT_FOUND for an unknown name; `guard`'s error, deleting nothing. Its runs are deleted; their
  // jobs stay.
  virtual Status DeleteSchedule(const std::string& name, const Guard& guard) = 0;
  // A MANUAL fire at the database's now(): a schedule_run (created_by = actor) and one job per
  // matching GPU, notified to waiting long-polls; SKIPPED "no matching GPU" when none matches.
  // FAILED_PRECONDITION when !allow_overlap and the previous fire still has unfinished jobs.
  // next_fire_at is unchanged; last_fire_at = the fire's due time. NOT_FOUND for an unknown name;
  // `guard`'s error, firing nothing.
  virtual StatusOr<v1::ScheduleRun> TriggerSchedule(const std::string& name,
                                                    const std::string& actor,
                                                    const Guard& guard) = 0;
  // NOT_FOUND for an unknown schedule; INVALID_ARGUMENT for a bad token.
  virtual StatusOr<ScheduleRunPage> ListScheduleRuns(const ScheduleRunQuery& query) = 0;

  // The scheduler's step. In one transaction: claims one enabled schedule with next_fire_at <= now
  // (earliest first) with FOR UPDATE SKIP LOCKED, so replicas never wait on each other and never
  // claim the same row at once; asks `decide`; records a CRON schedule_run for decision.due_at
  // (unique per schedule and due time: when one exists already nothing is created), with one job
  // per matching GPU of an online worker unless the decision skips; sets next_fire_at (and
  // last_fire_at when a run was recorded). nullopt when nothing is due. `decide` may run more
  // than once (retries) and must not block.
  using Decide = std::function<FireDecision(const DueSchedule&)>;
  virtual StatusOr<std::optional<FireOutcome>> FireNextDue(absl::Time now,
                                                           const Decide& decide) = 0;
};

}  // namespace warpwatch::server::schedule

#endif  // WARPWATCH_SERVER_SCHEDULE_SCHEDULE_STORE_H_
