# Every dependency comes from Debian's packages; say which one when it is missing.
# A macro, not a function: package configs (Catch2) extend CMAKE_MODULE_PATH in our scope.
macro(mlsize_require package debian_package)
  find_package(${package} ${ARGN} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "${package} not found: install it with `apt-get install ${debian_package}`")
  endif()
endmacro()

mlsize_require(yaml-cpp libyaml-cpp-dev)
mlsize_require(CLI11 libcli11-dev)
mlsize_require(nlohmann_json nlohmann-json3-dev 3.11)
mlsize_require(fmt libfmt-dev)
# recommend() plans offerings on several threads (glibc: part of libc6).
set(THREADS_PREFER_PTHREAD_FLAG ON)
mlsize_require(Threads libc6-dev)
