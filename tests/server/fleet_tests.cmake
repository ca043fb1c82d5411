# Tests of the fleet side of the server (included by tests/server/CMakeLists.txt): WorkerService,
# FleetService, the job reaper and `warpwatch workers`, over real gRPC channels to an in-process
# server on a real PostgreSQL.
add_executable(server_fleet_rpc_tests
  service/worker_service_rpc_test.cc
  service/worker_jobs_rpc_test.cc
  service/worker_identity_rpc_test.cc
  service/worker_runs_rpc_test.cc
  service/acquire_parking_rpc_test.cc
  service/fleet_service_rpc_test.cc
  queue/job_reaper_rpc_test.cc
  metrics/fleet_metrics_test.cc
  metrics/job_metrics_rpc_test.cc)
target_link_libraries(server_fleet_rpc_tests PRIVATE warpwatch_rpc_test_fixture GTest::gtest_main)
target_compile_definitions(server_fleet_rpc_tests PRIVATE
  WARPWATCH_CLI_PATH="$<TARGET_FILE:warpwatch>")
add_dependencies(server_fleet_rpc_tests warpwatch)
warpwatch_strict(server_fleet_rpc_tests)
gtest_discover_tests(server_fleet_rpc_tests TEST_PREFIX "fleet." PROPERTIES
  LABELS postgres TIMEOUT 120 DISCOVERY_TIMEOUT 60)
