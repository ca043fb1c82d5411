# ResultService's sources (issue 9), added to the server's edge library (included by
# server/server.cmake).
target_sources(warpwatch_server_edge PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/result_baselines.cc
  ${CMAKE_CURRENT_LIST_DIR}/result_compare.cc
  ${CMAKE_CURRENT_LIST_DIR}/result_requests.cc)
# CompareRuns uses the detector; UploadRun digests the run with SHA-256 (result_upload.cc is in
# warpwatch_server_requests, server/server.cmake).
target_link_libraries(warpwatch_server_edge PRIVATE warpwatch_detect_proto OpenSSL::Crypto)
