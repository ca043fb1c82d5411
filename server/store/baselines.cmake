# Pinned baselines and summary downsampling (issue 11, migration 0012), added to the store library
# (included by server/store/CMakeLists.txt).
target_sources(warpwatch_store PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/pg_store_baselines.cc
  ${CMAKE_CURRENT_LIST_DIR}/pg_store_rollups.cc
  ${CMAKE_CURRENT_LIST_DIR}/detail/rollup_fold.cc
  # Measurement partitions made ahead and dropped by age (issue 25, migration 0019).
  ${CMAKE_CURRENT_LIST_DIR}/pg_store_partitions.cc)
