# `cmake --install`: the binary, the man page (docs/cli.md through pandoc, when found),
# the bash, zsh and fish completions (written by the built binary) and the README and
# licence; CPack makes the same files a .deb (cmake/Package.cmake).
include(GNUInstallDirs)

install(TARGETS mlsize RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The completion scripts, from the command line's own definition (mlsize completion SHELL).
set(mlsize_completion_dir ${CMAKE_CURRENT_BINARY_DIR}/completions)
set(mlsize_completion_files
    ${mlsize_completion_dir}/mlsize.bash ${mlsize_completion_dir}/_mlsize ${mlsize_completion_dir}/mlsize.fish)
add_custom_command(
  OUTPUT ${mlsize_completion_files}
  COMMAND ${CMAKE_COMMAND} -DMLSIZE=$<TARGET_FILE:mlsize> -DDIR=${mlsize_completion_dir}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/WriteCompletions.cmake
  DEPENDS mlsize ${CMAKE_CURRENT_SOURCE_DIR}/cmake/WriteCompletions.cmake
  VERBATIM
  COMMENT "Writing the bash, zsh and fish completions")
add_custom_target(mlsize_completions ALL DEPENDS ${mlsize_completion_files})
install(FILES ${mlsize_completion_dir}/mlsize.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME mlsize)
# zsh reads neither a fixed folder nor $XDG_DATA_DIRS: Debian's zsh has
# /usr/share/zsh/vendor-completions (for packages) and /usr/local/share/zsh/site-functions
# (for everything else) in $fpath, but no /usr/local/share/zsh/vendor-completions. So the
# prefix at install time chooses (CPack installs to /usr, `cmake --install` to /usr/local
# unless told): vendor-completions under /usr, zsh's own site-functions under any other.
install(CODE "
  if(CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
    set(mlsize_zsh_dir \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions\")
  else()
    set(mlsize_zsh_dir \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/zsh/site-functions\")
  endif()
  file(INSTALL \"${mlsize_completion_dir}/_mlsize\" DESTINATION \"\${mlsize_zsh_dir}\")")
install(FILES ${mlsize_completion_dir}/mlsize.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

# mlsize(1) from docs/cli.md; gzipped, as Debian installs man pages.
find_program(MLSIZE_PANDOC pandoc)
find_program(MLSIZE_GZIP gzip)
if(MLSIZE_PANDOC AND MLSIZE_GZIP)
  set(mlsize_man ${CMAKE_CURRENT_BINARY_DIR}/mlsize.1)
  add_custom_command(
    OUTPUT ${mlsize_man} ${mlsize_man}.gz
    COMMAND ${MLSIZE_PANDOC} --standalone --to man --lua-filter ${CMAKE_CURRENT_SOURCE_DIR}/cmake/man-page.lua
            --metadata title=MLSIZE --metadata section=1 --metadata "header=mlsize manual"
            --metadata "footer=mlsize ${PROJECT_VERSION}" --output ${mlsize_man}
            ${CMAKE_CURRENT_SOURCE_DIR}/docs/cli.md
    COMMAND ${MLSIZE_GZIP} -9 -n -f -k ${mlsize_man}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/docs/cli.md ${CMAKE_CURRENT_SOURCE_DIR}/cmake/man-page.lua
    VERBATIM
    COMMENT "Writing the man page mlsize.1 from docs/cli.md")
  add_custom_target(mlsize_man ALL DEPENDS ${mlsize_man} ${mlsize_man}.gz)
  install(FILES ${mlsize_man}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "pandoc not found: no man page (apt-get install pandoc)")
endif()

install(FILES README.md LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
