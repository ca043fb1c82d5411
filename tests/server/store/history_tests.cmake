# Store tests of issue 9's query side (included by tests/server/store/CMakeLists.txt): history
# reads, regression triage, offline uploads and finished jobs' points_done.
foreach(t history_store_test regression_store_test upload_store_test)
  add_executable(server_store_${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.cc)
  target_link_libraries(server_store_${t} PRIVATE warpwatch_store_test_util GTest::gtest_main)
  warpwatch_strict(server_store_${t})
  gtest_discover_tests(server_store_${t} TEST_PREFIX "store." PROPERTIES LABELS "postgres" TIMEOUT 120)
endforeach()

# The scale benchmark of GetSeries and QueryMeasurements on ten million measurements (it loads
# them itself; minutes): build-server/bin/server_history_scale_bench. Not a ctest.
add_executable(server_history_scale_bench ${CMAKE_CURRENT_LIST_DIR}/history_scale_bench.cc)
target_link_libraries(server_history_scale_bench PRIVATE warpwatch_store warpwatch_test_support)
warpwatch_strict(server_history_scale_bench)
