# mlsize_embed_files(OUTPUT file.cpp FUNCTION name FILES a.yaml b.yaml)
# Generates a C++ source defining `std::span<const mlsize::EmbeddedFile> mlsize::<name>()`
# holding each file's name and text, regenerated whenever a file changes.
function(mlsize_embed_files)
  cmake_parse_arguments(ARG "" "OUTPUT;FUNCTION" "FILES" ${ARGN})
  add_custom_command(
    OUTPUT ${ARG_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${ARG_OUTPUT} -DFUNCTION=${ARG_FUNCTION}
            "-DFILES=${ARG_FILES}" -P ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    DEPENDS ${ARG_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    COMMENT "Embedding ${ARG_FUNCTION} into ${ARG_OUTPUT}"
    VERBATIM)
endfunction()
