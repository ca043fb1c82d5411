# The server's gRPC edge (included by server/CMakeLists.txt): config, auth, TLS, validation,
# services, health, metrics, runtime, and the warpwatch-server executable.

# OpenSSL's libcrypto (SHA-256, CRYPTO_memcmp) for token digests; libgrpc-dev depends on libssl-dev.
find_package(OpenSSL REQUIRED)

add_library(warpwatch_server_auth STATIC
  auth/role.cc
  auth/token_digest.cc
  auth/token_file.cc
  auth/authorizer.cc
  auth/ownership.cc)
target_include_directories(warpwatch_server_auth PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(warpwatch_server_auth PUBLIC warpwatch_status gRPC::grpc++
  PRIVATE OpenSSL::Crypto)
warpwatch_strict(warpwatch_server_auth)

add_library(warpwatch_server_validation STATIC
  validation/job_spec_validator.cc
  validation/request_validator.cc
  validation/detail/field_rules.cc)
target_include_directories(warpwatch_server_validation PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(warpwatch_server_validation PUBLIC warpwatch_catalog warpwatch_proto)
warpwatch_strict(warpwatch_server_validation)

# Request checks and parsing that need neither a database nor gRPC's server: WorkerService's
# request checks and UploadRun's run-file parsing. A library of their own so the fuzzers
# (tests/fuzz) link them without the whole edge.
add_library(warpwatch_server_requests STATIC
  service/detail/worker_requests.cc
  service/result_upload.cc)
target_include_directories(warpwatch_server_requests PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(warpwatch_server_requests PUBLIC warpwatch_status warpwatch_proto
  PRIVATE OpenSSL::Crypto)
warpwatch_strict(warpwatch_server_requests)

add_library(warpwatch_server_edge STATIC
  config/server_config.cc
  database/database.cc
  database/read_replica.cc
  database/replica_lag.cc
  health/health_checker.cc
  logging/logging.cc
  metrics/server_metrics.cc
  metrics/detail/label_text.cc
  metrics/detail/rpc_interceptor.cc
  runtime/server_runtime.cc
  runtime/served_methods.cc
  service/grpc_status.cc
  service/job_service.cc
  service/watch_job.cc
  service/worker_service.cc
  service/acquire_job.cc
  service/detail/acquire_parking.cc
  service/detail/worker_caller_cache.cc
  service/upload_measurements.cc
  service/fleet_service.cc
  service/fleet_gpu_health.cc
  service/schedule_service.cc
  service/detail/schedule_requests.cc
  service/detail/schedule_limits.cc
  queue/job_reaper.cc
  metrics/fleet_metrics.cc
  metrics/database_metrics.cc
  metrics/job_metrics.cc
  metrics/regression_metrics.cc
  metrics/gpu_health_metrics.cc
  metrics/schedule_metrics.cc
  metrics/gauge_refresher.cc
  metrics/incident_metrics.cc
  metrics/replica_metrics.cc
  service/incident_service.cc
  service/result_service.cc
  service/detail/authorized_call.cc
  service/detail/call_pool.cc
  service/detail/raw_unary_call.cc
  service/detail/principal_slots.cc
  service/detail/principal_rate.cc
  service/detail/authorize_before_read.cc
  tls/server_credentials.cc)
target_include_directories(warpwatch_server_edge PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(warpwatch_server_edge PUBLIC
  warpwatch_health_code
  warpwatch_server_auth
  warpwatch_server_requests
  warpwatch_server_validation
  warpwatch_store
  warpwatch_pg_schedule_store
  warpwatch_pg_gpu_health_store
  warpwatch_proto
  warpwatch_sync
  gRPC::grpc++
  gRPC::grpc++_reflection
  prometheus-cpp::pull
  CLI11::CLI11
  spdlog::spdlog
  Threads::Threads)
warpwatch_strict(warpwatch_server_edge)
include(${CMAKE_CURRENT_LIST_DIR}/service/result.cmake)

add_executable(warpwatch-server main.cc)
target_link_libraries(warpwatch-server PRIVATE warpwatch_server_edge)
warpwatch_strict(warpwatch-server)
install(TARGETS warpwatch-server RUNTIME DESTINATION bin)
