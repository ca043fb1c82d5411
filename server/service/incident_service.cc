// File: server/service/incident_service.cc
#include "server/service/incident_service.h"

#include <spdlog/spdlog.h>

#include <string_view>

#include "server/service/detail/authorize_before_read.h"
#include "server/service/detail/authorized_call.h"

namespace warpwatch::server {
namespace {

constexpr std::string_view kListIncidents = "/warpwatch.v1.IncidentService/ListIncidents";
constexpr std::string_view kGetIncident = "/warpwatch.v1.IncidentService/GetIncident";
constexpr std::string_view kUpdateIncident = "/warpwatch.v1.IncidentService/UpdateIncident";
constexpr std::string_view kExplainFinding = "/warpwatch.v1.IncidentService/ExplainFinding";
constexpr size_t kMaxNoteBytes = 4096;

}  // namespace

StatusOr<incidents::IncidentStore*> IncidentServiceImpl::ReadyIncidents() {
  if (incidents_ == nullptr) {
    return UnimplementedError("incidents need the PostgreSQL store; this server has none");
  }
  RETURN_IF_ERROR(database_->ReadyStore().status());
  return incidents_;
}

grpc::Status IncidentServiceImpl::ListIncidents(grpc::ServerContext* context,
                                                const v1::ListIncidentsRequest* request,
                                                v1::ListIncidentsResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kListIncidents, [&](const auth::Principal&) -> Status {
        if (request->page_size() < 0)
          return InvalidArgumentError("page_size: must not be negative");
        incidents::IncidentFilter filter;
        for (int s : request->states()) filter.states.push_back(static_cast<v1::IncidentState>(s));
        for (int c : request->cause_classes()) {
          filter.cause_classes.push_back(static_cast<v1::CauseClass>(c));
        }
        filter.gpu_model = request->gpu_model();
        filter.page_size = request->page_size();
        filter.page_token = request->page_token();
        ASSIGN_OR_RETURN(incidents::IncidentStore * store, ReadyIncidents());
        ASSIGN_OR_RETURN(incidents::IncidentPage page, store->ListIncidents(filter));
        for (v1::Incident& i : page.incidents) *response->add_incidents() = std::move(i);
        response->set_next_page_token(page.next_page_token);
        return OkStatus();
      });
}

grpc::Status IncidentServiceImpl::GetIncident(grpc::ServerContext* context,
                                              const v1::GetIncidentRequest* request,
                                              v1::Incident* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kGetIncident, [&](const auth::Principal&) -> Status {
        if (request->id() <= 0) return InvalidArgumentError("id: must be positive");
        ASSIGN_OR_RETURN(incidents::IncidentStore * store, ReadyIncidents());
        ASSIGN_OR_RETURN(*response, store->GetIncident(request->id()));
        return OkStatus();
      });
}

grpc::Status IncidentServiceImpl::UpdateIncident(grpc::ServerContext* context,
                                                 const v1::UpdateIncidentRequest* request,
                                                 v1::Incident* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kUpdateIncident, [&](const auth::Principal& caller) -> Status {
        if (request->id() <= 0) return InvalidArgumentError("id: must be positive");
        if (request->note().size() > kMaxNoteBytes) {
          return InvalidArgumentError("note: longer than 4096 bytes");
        }
        ASSIGN_OR_RETURN(incidents::IncidentStore * store, ReadyIncidents());
        ASSIGN_OR_RETURN(*response, store->UpdateIncident(request->id(), request->state(),
                                                          request->note(), caller.name));
        spdlog::info("msg=\"incident triaged\" id={} state={} by={}", response->id(),
                     v1::IncidentState_Name(response->state()), caller.name);
        return OkStatus();
      });
}

grpc::Status IncidentServiceImpl::ExplainFinding(grpc::ServerContext* context,
                                                 const v1::ExplainFindingRequest* request,
                                                 v1::Regression* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kExplainFinding, [&](const auth::Principal&) -> Status {
        if (request->regression_id() <= 0) {
          return InvalidArgumentError("regression_id: must be positive");
        }
        ASSIGN_OR_RETURN(incidents::IncidentStore * store, ReadyIncidents());
        ASSIGN_OR_RETURN(*response, store->ExplainFinding(request->regression_id()));
        return OkStatus();
      });
}

void IncidentServiceImpl::AuthorizeBeforeReading() {
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.IncidentService/ListIncidents"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.IncidentService/ListIncidents", this,
                                                 &IncidentServiceImpl::ListIncidents));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.IncidentService/GetIncident"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.IncidentService/GetIncident", this,
                                                 &IncidentServiceImpl::GetIncident));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.IncidentService/UpdateIncident"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.IncidentService/UpdateIncident", this,
                                                 &IncidentServiceImpl::UpdateIncident));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.IncidentService/ExplainFinding"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.IncidentService/ExplainFinding", this,
                                                 &IncidentServiceImpl::ExplainFinding));
}

}  // namespace warpwatch::server
