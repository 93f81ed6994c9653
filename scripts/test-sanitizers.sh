#!/bin/sh
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (docs/reliability.md).
# Any finding aborts the test that hit it (-fno-sanitize-recover=all), so ctest fails.
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMLSIZE_SANITIZE="address;undefined"
cmake --build build-sanitize
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-sanitize --output-on-failure
