# Pinned baselines and summary downsampling (issue 11, migration 0012), added to the store library
# (included by server/store/CMakeLists.txt).
target_sources(warpwatch_store PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/pg_store_baselines.cc
  ${CMAKE_CURRENT_LIST_DIR}/pg_store_rollups.cc)
