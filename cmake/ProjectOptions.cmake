# Warnings and sanitizers for project targets only (never for dependencies).
add_library(mlsize_project_options INTERFACE)
target_compile_options(mlsize_project_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor
  -Wold-style-cast -Wnull-dereference -Wimplicit-fallthrough
  # No fused multiply-adds the source does not write: with GCC's default (fast), arm64
  # builds and -march=native contract a*b+c and change JSON floats in their last digits.
  # CI runs the same golden outputs at -O3 (Release) and -O0 (the sanitizer build).
  -ffp-contract=off)
if(DEFINED ENV{CI})
  message(STATUS "CI is set: warnings are errors")
  target_compile_options(mlsize_project_options INTERFACE -Werror)
endif()
if(MLSIZE_BUILD_FUZZ)
  # Coverage instrumentation for every project target; the fuzz targets add the driver.
  target_compile_options(mlsize_project_options INTERFACE -fsanitize=fuzzer-no-link)
endif()
if(MLSIZE_SANITIZE)
  list(JOIN MLSIZE_SANITIZE "," sanitizers)
  target_compile_options(mlsize_project_options INTERFACE
    -fsanitize=${sanitizers} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(mlsize_project_options INTERFACE -fsanitize=${sanitizers})
endif()
