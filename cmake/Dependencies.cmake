# Every dependency comes from Debian's packages; say which one when it is missing.
function(mlsize_require package debian_package)
  find_package(${package} ${ARGN} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "${package} not found: install it with `apt-get install ${debian_package}`")
  endif()
endfunction()

mlsize_require(yaml-cpp libyaml-cpp-dev)
mlsize_require(CLI11 libcli11-dev)
mlsize_require(nlohmann_json nlohmann-json3-dev 3.11)
mlsize_require(fmt libfmt-dev)
