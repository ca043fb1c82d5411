# Store tests of issue 9's query side (included by tests/server/store/CMakeLists.txt): history
# reads, regression triage, offline uploads and finished jobs' points_done.
foreach(t history_store_test regression_store_test upload_store_test)
  add_executable(server_store_${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.cc)
  target_link_libraries(server_store_${t} PRIVATE warpwatch_store_test_util GTest::gtest_main)
  warpwatch_strict(server_store_${t})
  gtest_discover_tests(server_store_${t} TEST_PREFIX "store." PROPERTIES LABELS "postgres" TIMEOUT 120)
endforeach()

