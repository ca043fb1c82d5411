// File: server/runtime/served_methods.cc
#include "server/runtime/served_methods.h"

#include <google/protobuf/descriptor.h>

#include "warpwatch/v1/fleet.grpc.pb.h"
#include "warpwatch/v1/incident.grpc.pb.h"
#include "warpwatch/v1/job.grpc.pb.h"
#include "warpwatch/v1/result.grpc.pb.h"
#include "warpwatch/v1/schedule.grpc.pb.h"
#include "warpwatch/v1/worker.grpc.pb.h"

namespace warpwatch::server {

std::set<std::string> ServedMethods() {
  std::set<std::string> methods = {
      "grpc.health.v1.Health/Check",
      "grpc.health.v1.Health/Watch",
      "grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
  };
  const google::protobuf::DescriptorPool* pool = google::protobuf::DescriptorPool::generated_pool();
  for (const char* service :
       {v1::JobService::service_full_name(), v1::WorkerService::service_full_name(),
        v1::ResultService::service_full_name(), v1::FleetService::service_full_name(),
        v1::ScheduleService::service_full_name(), v1::IncidentService::service_full_name()}) {
    const google::protobuf::ServiceDescriptor* descriptor = pool->FindServiceByName(service);
    if (descriptor == nullptr) continue;  // cannot happen: the service's .pb.cc is linked in
    for (int i = 0; i < descriptor->method_count(); ++i) {
      methods.insert(std::string(service) + "/" + descriptor->method(i)->name());
    }
  }
  return methods;
}

}  // namespace warpwatch::server
