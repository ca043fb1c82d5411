# Sourced by tests/run_sanitized.sh and tests/run_fuzzers.sh: the sanitizers' runtime options.
# Every ASan error and every UBSan report stops the process with a failure (halt_on_error; UBSan is
# also built with -fno-sanitize-recover); LeakSanitizer runs at exit with the suppressions in
# tests/sanitizers/lsan.supp (third-party leaks only). Options already set in the environment come
# first, so a caller may add to them (a later duplicate key wins in sanitizer_common).
_ww_san_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$_ww_san_dir/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
