# Tests of the server's gRPC edge (included by tests/server/CMakeLists.txt): unit tests without a
# database, and RPC tests over real channels to an in-process server on a real PostgreSQL.

# Client stubs of the standard health protocol (not shipped by Debian's gRPC packages).
set(_health_out ${CMAKE_CURRENT_BINARY_DIR}/edge_gen)
set(_health_gen
  ${_health_out}/tests/server/health/health.pb.cc ${_health_out}/tests/server/health/health.pb.h
  ${_health_out}/tests/server/health/health.grpc.pb.cc
  ${_health_out}/tests/server/health/health.grpc.pb.h)
get_target_property(_edge_grpc_plugin gRPC::grpc_cpp_plugin LOCATION)
add_custom_command(
  OUTPUT ${_health_gen}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_health_out}
  COMMAND protobuf::protoc --proto_path=${PROJECT_SOURCE_DIR}
    --cpp_out=${_health_out} --grpc_out=${_health_out}
    --plugin=protoc-gen-grpc=${_edge_grpc_plugin}
    ${PROJECT_SOURCE_DIR}/tests/server/health/health.proto
  DEPENDS ${PROJECT_SOURCE_DIR}/tests/server/health/health.proto protobuf::protoc
          gRPC::grpc_cpp_plugin
  COMMENT "protoc tests/server/health/health.proto")
add_library(warpwatch_test_health_proto STATIC ${_health_gen})
target_include_directories(warpwatch_test_health_proto PUBLIC ${_health_out})
target_link_libraries(warpwatch_test_health_proto PUBLIC protobuf::libprotobuf gRPC::grpc++)

# The in-process server fixture, shared with the CLI tests.
add_library(warpwatch_rpc_test_fixture STATIC runtime/rpc_test_fixture.cc)
target_include_directories(warpwatch_rpc_test_fixture PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(warpwatch_rpc_test_fixture PUBLIC
  warpwatch_server_edge warpwatch_test_support warpwatch_migrated_template GTest::gtest)
warpwatch_strict(warpwatch_rpc_test_fixture)

add_executable(server_edge_unit_tests
  auth/authorizer_test.cc
  auth/token_digest_test.cc
  auth/token_file_test.cc
  config/server_config_test.cc
  database/read_replica_test.cc
  database/replica_lag_test.cc
  metrics/job_and_database_metrics_test.cc
  metrics/schedule_metrics_test.cc
  metrics/incident_metrics_test.cc
  service/worker_caller_cache_test.cc
  service/detail/worker_requests_test.cc
  service/detail/authorized_call_test.cc
  service/detail/schedule_requests_test.cc
  service/detail/call_pool_test.cc
  service/detail/raw_unary_call_test.cc
  service/detail/principal_rate_test.cc)
target_link_libraries(server_edge_unit_tests PRIVATE warpwatch_server_edge GTest::gtest_main)
warpwatch_strict(server_edge_unit_tests)
gtest_discover_tests(server_edge_unit_tests TEST_PREFIX "edge." PROPERTIES LABELS "server")

add_executable(server_rpc_tests
  auth/rpc_auth_test.cc
  auth/role_matrix_rpc_test.cc
  health/health_rpc_test.cc
  hostile/hostile_clients_rpc_test.cc
  reflection/reflection_rpc_test.cc
  metrics/metrics_rpc_test.cc
  metrics/unknown_method_metrics_rpc_test.cc
  service/job_service_rpc_test.cc
  service/watch_job_rpc_test.cc
  service/database_error_rpc_test.cc
  runtime/server_runtime_schema_rpc_test.cc
  tls/tls_rpc_test.cc
  validation/request_validation_rpc_test.cc)
target_link_libraries(server_rpc_tests PRIVATE
  warpwatch_rpc_test_fixture warpwatch_test_health_proto GTest::gtest_main)
warpwatch_strict(server_rpc_tests)
# Names start with "edge." (ctest -R '^edge\.' runs only these); label "postgres" as the store's.
gtest_discover_tests(server_rpc_tests TEST_PREFIX "edge." PROPERTIES LABELS "postgres" TIMEOUT 120
  DISCOVERY_TIMEOUT 60)

# Real warpwatch-server processes without a database: what a hostile client costs the server in
# peak RSS (issue 23).
add_executable(server_process_tests
  hostile/unauthenticated_cost_process_test.cc
  ${PROJECT_SOURCE_DIR}/tests/e2e/child_process.cc)
target_link_libraries(server_process_tests PRIVATE
  warpwatch_test_support warpwatch_proto gRPC::grpc++ GTest::gtest_main)
target_compile_definitions(server_process_tests PRIVATE
  WARPWATCH_SERVER_PATH="$<TARGET_FILE:warpwatch-server>")
add_dependencies(server_process_tests warpwatch-server)
warpwatch_strict(server_process_tests)
gtest_discover_tests(server_process_tests TEST_PREFIX "edge." PROPERTIES LABELS "server"
  TIMEOUT 120)
