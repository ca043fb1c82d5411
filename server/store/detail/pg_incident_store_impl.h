// File: server/store/detail/pg_incident_store_impl.h
// The PostgreSQL IncidentStore's classes, shared by pg_incident_sweep.cc (the sweep's
// transaction) and pg_incident_store.cc (open, service reads and triage, metric counts).
#ifndef WARPWATCH_SERVER_STORE_DETAIL_PG_INCIDENT_STORE_IMPL_H_
#define WARPWATCH_SERVER_STORE_DETAIL_PG_INCIDENT_STORE_IMPL_H_

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "server/incidents/incident_store.h"
#include "server/store/detail/connection_pool.h"
#include "server/store/detail/transact.h"
#include "server/store/pg_incident_store.h"

namespace warpwatch::server::detail {

// The stored data a finding is explained from (runs, measurements of its case), read in `tx`.
StatusOr<incidents::FindingEvidence> SelectEvidence(pqxx::work& tx, const v1::Regression& finding);

// The select list IncidentFromRow reads, for the incident table aliased `i`.
const std::string& IncidentColumns();
StatusOr<v1::Incident> IncidentFromRow(const pqxx::row& row);

// Valid during one PgIncidentStore::Sweep callback.
class PgIncidentSweepTx : public incidents::IncidentSweepTx {
 public:
  explicit PgIncidentSweepTx(pqxx::work& tx) : tx_(tx) {}

  StatusOr<std::vector<incidents::UnsweptFinding>> LoadUnswept(int limit) override;
  StatusOr<incidents::FindingEvidence> LoadEvidence(const v1::Regression& finding) override;
  Status SaveExplanation(int64_t regression_id, const v1::Explanation& explanation) override;
  StatusOr<int64_t> JoinIncident(int64_t regression_id, const incidents::IncidentKey& key,
                                 const incidents::FindingOrigin& origin) override;
  StatusOr<std::vector<int64_t>> IncidentsToRefresh(const std::vector<int64_t>& touched) override;
  StatusOr<incidents::IncidentMembers> LoadMembers(int64_t incident_id) override;
  StatusOr<int> CountPeers(const std::string& window_key, const std::string& gpu_model) override;
  StatusOr<std::vector<incidents::MovedFamily>> WindowMoves(
      const incidents::IncidentKey& key) override;
  StatusOr<int64_t> ActiveIncident(const incidents::IncidentKey& key) override;
  StatusOr<std::vector<v1::RunEnvironment>> WindowEnvironments(
      const std::string& window_key, const std::string& gpu_model) override;
  StatusOr<int64_t> MergeIncident(int64_t from, const incidents::IncidentKey& into,
                                  const incidents::FindingOrigin& origin,
                                  const std::string& note) override;
  Status SaveDerived(int64_t incident_id, const incidents::IncidentDerived& derived) override;
  Status MoveIncident(int64_t incident_id, const std::string& from, const std::string& to,
                      const std::string& note) override;

 private:
  pqxx::work& tx_;
};

// Thread-safe: only the pool is mutable, and it is.
class PgIncidentStore : public incidents::IncidentStore {
 public:
  explicit PgIncidentStore(const PgStoreOptions& options);

  Status Sweep(const SweepFn& fn) override;
  StatusOr<incidents::IncidentPage> ListIncidents(const incidents::IncidentFilter& filter) override;
  StatusOr<v1::Incident> GetIncident(int64_t id) override;
  StatusOr<v1::Incident> UpdateIncident(int64_t id, v1::IncidentState to, const std::string& note,
                                        const std::string& actor) override;
  StatusOr<v1::Regression> ExplainFinding(int64_t regression_id) override;
  StatusOr<std::vector<incidents::OpenIncident>> ListOpenIncidents() override;
  StatusOr<std::vector<incidents::IncidentCount>> CountIncidents() override;

 private:
  template <typename T, typename Fn>
  StatusOr<T> Run(const std::string& what, Fn&& fn) {
    return Transact<T>(pool_, what, std::forward<Fn>(fn));
  }

  ConnectionPool pool_;
};

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_PG_INCIDENT_STORE_IMPL_H_
