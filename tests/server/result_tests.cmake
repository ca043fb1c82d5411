# ResultService RPC tests (issue 9's query side; included by tests/server/CMakeLists.txt): queries,
# triage and uploads over real gRPC channels to an in-process server on a real PostgreSQL.
add_executable(server_result_rpc_tests
  service/result_service_rpc_test.cc
  service/result_triage_rpc_test.cc
  service/result_upload_rpc_test.cc
  service/result_baseline_rpc_test.cc
  service/scoped_roles_rpc_test.cc
  service/principal_limits_rpc_test.cc)
target_link_libraries(server_result_rpc_tests PRIVATE warpwatch_rpc_test_fixture GTest::gtest_main)
target_compile_definitions(server_result_rpc_tests PRIVATE
  WARPWATCH_FIXTURES_DIR="${PROJECT_SOURCE_DIR}/tests/fixtures")
warpwatch_strict(server_result_rpc_tests)
gtest_discover_tests(server_result_rpc_tests TEST_PREFIX "result." PROPERTIES
  LABELS postgres TIMEOUT 120 DISCOVERY_TIMEOUT 60)

# ScheduleService RPC tests (issue 11).
add_executable(server_schedule_rpc_tests service/schedule_service_rpc_test.cc)
target_link_libraries(server_schedule_rpc_tests PRIVATE warpwatch_rpc_test_fixture
  GTest::gtest_main)
warpwatch_strict(server_schedule_rpc_tests)
gtest_discover_tests(server_schedule_rpc_tests TEST_PREFIX "schedule." PROPERTIES
  LABELS postgres TIMEOUT 120 DISCOVERY_TIMEOUT 60)

# IncidentService RPC tests (issue 26).
add_executable(server_incident_rpc_tests service/incident_rpc_test.cc)
target_link_libraries(server_incident_rpc_tests PRIVATE warpwatch_rpc_test_fixture
  warpwatch_pg_incident_store GTest::gtest_main)
warpwatch_strict(server_incident_rpc_tests)
gtest_discover_tests(server_incident_rpc_tests TEST_PREFIX "incident." PROPERTIES
  LABELS postgres TIMEOUT 120 DISCOVERY_TIMEOUT 60)

# History reads from a hot standby (issue 25): a primary and a pg_basebackup standby.
add_executable(server_read_replica_rpc_tests service/read_replica_rpc_test.cc)
target_link_libraries(server_read_replica_rpc_tests PRIVATE warpwatch_rpc_test_fixture
  GTest::gtest_main)
warpwatch_strict(server_read_replica_rpc_tests)
gtest_discover_tests(server_read_replica_rpc_tests TEST_PREFIX "result." PROPERTIES
  LABELS postgres TIMEOUT 180 DISCOVERY_TIMEOUT 60)
