# History and triage reads for ResultService, and offline run uploads (issue 9), added to the
# store library (included by server/store/CMakeLists.txt).
target_sources(warpwatch_store PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/pg_store_history.cc
  ${CMAKE_CURRENT_LIST_DIR}/pg_store_series.cc
  ${CMAKE_CURRENT_LIST_DIR}/pg_store_regressions.cc
  ${CMAKE_CURRENT_LIST_DIR}/pg_store_upload.cc
  ${CMAKE_CURRENT_LIST_DIR}/detail/run_row.cc
  ${CMAKE_CURRENT_LIST_DIR}/detail/regression_row.cc)
# catalog::ParseCanonical fills a regression's case params from its canonical key.
target_link_libraries(warpwatch_store PRIVATE warpwatch_catalog)
