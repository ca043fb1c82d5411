// File: server/service/incident_service.h
// IncidentService: incidents (findings grouped by change, with a cause class), their triage, and
// the explanation of one finding (docs/incidents.md). Readers list and read; submitters and admins
// triage (server/auth/role.cc). The caller's identity recorded with a triage is its credential's
// principal, never a request field.
#ifndef WARPWATCH_SERVER_SERVICE_INCIDENT_SERVICE_H_
#define WARPWATCH_SERVER_SERVICE_INCIDENT_SERVICE_H_

#include "server/auth/authorizer.h"
#include "server/database/database.h"
#include "server/incidents/incident_store.h"
#include "warpwatch/v1/incident.grpc.pb.h"

namespace warpwatch::server {

// Thread-safe. `database` (for schema readiness) and `authorizer` must outlive the service, and
// `incidents` when not null; null (a server over a non-PostgreSQL store) answers UNIMPLEMENTED.
class IncidentServiceImpl final : public v1::IncidentService::Service {
 public:
  IncidentServiceImpl(Database* database, incidents::IncidentStore* incidents,
                      const auth::Authorizer* authorizer)
      : database_(database), incidents_(incidents), authorizer_(authorizer) {
    AuthorizeBeforeReading();
  }

  // INVALID_ARGUMENT for a negative page_size, an unknown state or class, or a bad page token.
  grpc::Status ListIncidents(grpc::ServerContext* context, const v1::ListIncidentsRequest* request,
                             v1::ListIncidentsResponse* response) override;
  // NOT_FOUND for an unknown id.
  grpc::Status GetIncident(grpc::ServerContext* context, const v1::GetIncidentRequest* request,
                           v1::Incident* response) override;
  // NOT_FOUND; FAILED_PRECONDITION naming both states for an illegal move; INVALID_ARGUMENT for a
  // state that is not a triage state or a note over 4096 bytes.
  grpc::Status UpdateIncident(grpc::ServerContext* context,
                              const v1::UpdateIncidentRequest* request,
                              v1::Incident* response) override;
  // NOT_FOUND for an unknown regression.
  grpc::Status ExplainFinding(grpc::ServerContext* context,
                              const v1::ExplainFindingRequest* request,
                              v1::Regression* response) override;

 private:
  // Serves every synchronous unary method through detail::AuthorizeBeforeRead (the caller is
  // authorized before its request is read); called once by the constructor.
  void AuthorizeBeforeReading();
  // The store once the schema is ready: UNAVAILABLE before, UNIMPLEMENTED without a store.
  StatusOr<incidents::IncidentStore*> ReadyIncidents();

  Database* database_;
  incidents::IncidentStore* incidents_;
  const auth::Authorizer* authorizer_;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_INCIDENT_SERVICE_H_
