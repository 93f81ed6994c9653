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

# mlsize starts in two thirds of the time with its C++ libraries linked in: the dynamic
# loader then maps and relocates libstdc++, yaml-cpp and fmt no more, and binds none of
# their symbols (docs/performance.md#start-up). libyaml-cpp-dev ships the archive; fmt's
# compiled part is built from its headers, once. Sanitizer and fuzz builds link dynamically, as their
# runtimes expect.
if(MLSIZE_SANITIZE OR MLSIZE_BUILD_FUZZ)
  set(mlsize_static_default OFF)
else()
  set(mlsize_static_default ON)
endif()
option(MLSIZE_STATIC_LIBS "Link libstdc++, libgcc, yaml-cpp and fmt into mlsize" ${mlsize_static_default})
if(MLSIZE_STATIC_LIBS)
  find_library(MLSIZE_YAML_CPP_ARCHIVE libyaml-cpp.a)
  if(NOT MLSIZE_YAML_CPP_ARCHIVE)
    message(FATAL_ERROR "libyaml-cpp.a not found: install libyaml-cpp-dev, or configure with -DMLSIZE_STATIC_LIBS=OFF")
  endif()
  set(MLSIZE_YAML_CPP ${MLSIZE_YAML_CPP_ARCHIVE})
  # fmt's compiled part once (src/build_support/fmt_format.cpp), not in every file that
  # formats as fmt::fmt-header-only would: 5.5 s less per file (docs/performance.md#build-time).
  add_library(mlsize_fmt STATIC ${CMAKE_CURRENT_SOURCE_DIR}/src/build_support/fmt_format.cpp)
  target_include_directories(mlsize_fmt PUBLIC $<TARGET_PROPERTY:fmt::fmt,INTERFACE_INCLUDE_DIRECTORIES>)
  set(MLSIZE_FMT mlsize_fmt)
else()
  set(MLSIZE_YAML_CPP yaml-cpp)
  set(MLSIZE_FMT fmt::fmt)
endif()
