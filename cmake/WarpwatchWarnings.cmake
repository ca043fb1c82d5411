# warpwatch_strict(target): -Wall -Wextra -Werror on our own code (host and device compilation).
function(warpwatch_strict target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Werror --Werror all-warnings>)
endfunction()
