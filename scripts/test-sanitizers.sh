#!/bin/sh
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer, and the
# multi-threaded planner's tests under ThreadSanitizer (docs/reliability.md).
# Any finding aborts the test that hit it (-fno-sanitize-recover=all), so ctest fails.
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMLSIZE_SANITIZE="address;undefined"
cmake --build build-sanitize
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-sanitize --output-on-failure
# ThreadSanitizer on the tests that plan on several threads (recommend's workers).
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMLSIZE_SANITIZE=thread
cmake --build build-tsan --target mlsize_tests
TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/mlsize_tests "[ranker]"
