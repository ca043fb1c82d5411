// File: server/auth/role.cc
#include "server/auth/role.h"

#include <utility>

namespace warpwatch::server::auth {
namespace {

// What a method needs. A role grants a set of these; kAdmin only the admin role.
enum class Access { kRead, kSubmit, kWork, kAdmin };

constexpr std::pair<std::string_view, Access> kMethods[] = {
    {"/warpwatch.v1.JobService/GetJob", Access::kRead},
    {"/warpwatch.v1.JobService/ListJobs", Access::kRead},
    {"/warpwatch.v1.JobService/WatchJob", Access::kRead},
    {"/warpwatch.v1.JobService/SubmitJob", Access::kSubmit},
    {"/warpwatch.v1.JobService/CancelJob", Access::kSubmit},
    {"/warpwatch.v1.ResultService/ListRuns", Access::kRead},
    {"/warpwatch.v1.ResultService/QueryMeasurements", Access::kRead},
    {"/warpwatch.v1.ResultService/GetSeries", Access::kRead},
    {"/warpwatch.v1.ResultService/CompareRuns", Access::kRead},
    {"/warpwatch.v1.ResultService/ListRegressions", Access::kRead},
    {"/warpwatch.v1.ResultService/UpdateRegression", Access::kSubmit},
    {"/warpwatch.v1.ResultService/UploadRun", Access::kSubmit},
    {"/warpwatch.v1.ResultService/ListBaselines", Access::kRead},
    {"/warpwatch.v1.ResultService/PinBaseline", Access::kSubmit},
    {"/warpwatch.v1.ResultService/UnpinBaseline", Access::kSubmit},
    {"/warpwatch.v1.WorkerService/Register", Access::kWork},
    {"/warpwatch.v1.WorkerService/Heartbeat", Access::kWork},
    {"/warpwatch.v1.WorkerService/AcquireJob", Access::kWork},
    {"/warpwatch.v1.WorkerService/ReportProgress", Access::kWork},
    {"/warpwatch.v1.WorkerService/UploadMeasurements", Access::kWork},
    {"/warpwatch.v1.WorkerService/FinishJob", Access::kWork},
    {"/warpwatch.v1.FleetService/ListWorkers", Access::kRead},
    {"/warpwatch.v1.FleetService/GetGpuHealth", Access::kRead},
    {"/warpwatch.v1.FleetService/ListGpuHealth", Access::kRead},
    {"/warpwatch.v1.FleetService/MarkGpuHealth", Access::kAdmin},
    {"/warpwatch.v1.ScheduleService/GetSchedule", Access::kRead},
    {"/warpwatch.v1.ScheduleService/ListSchedules", Access::kRead},
    {"/warpwatch.v1.ScheduleService/ListScheduleRuns", Access::kRead},
    {"/warpwatch.v1.ScheduleService/CreateSchedule", Access::kSubmit},
    {"/warpwatch.v1.ScheduleService/UpdateSchedule", Access::kSubmit},
    {"/warpwatch.v1.ScheduleService/DeleteSchedule", Access::kSubmit},
    {"/warpwatch.v1.ScheduleService/TriggerSchedule", Access::kSubmit},
    {"/warpwatch.v1.IncidentService/ListIncidents", Access::kRead},
    {"/warpwatch.v1.IncidentService/GetIncident", Access::kRead},
    {"/warpwatch.v1.IncidentService/ExplainFinding", Access::kRead},
    {"/warpwatch.v1.IncidentService/UpdateIncident", Access::kSubmit},
};

bool Grants(Role role, Access access) {
  switch (role) {
    case Role::kAdmin:
      return true;
    case Role::kReader:
      return access == Access::kRead;
    case Role::kSubmitter:
      return access == Access::kRead || access == Access::kSubmit;
    case Role::kWorker:
      return access == Access::kWork;
  }
  return false;
}

}  // namespace

std::optional<Role> ParseRole(std::string_view name) {
  if (name == "reader") return Role::kReader;
  if (name == "submitter") return Role::kSubmitter;
  if (name == "worker") return Role::kWorker;
  if (name == "admin") return Role::kAdmin;
  return std::nullopt;
}

const char* RoleName(Role role) {
  switch (role) {
    case Role::kReader:
      return "reader";
    case Role::kSubmitter:
      return "submitter";
    case Role::kWorker:
      return "worker";
    case Role::kAdmin:
      return "admin";
  }
  return "unknown";
}

bool RoleAllows(Role role, std::string_view method) {
  if (role == Role::kAdmin) return true;
  for (const auto& [name, access] : kMethods) {
    if (name == method) return Grants(role, access);
  }
  return false;
}

}  // namespace warpwatch::server::auth
