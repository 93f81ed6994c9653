# cmake -DMLSIZE=path/to/mlsize -DDIR=out -P WriteCompletions.cmake: the completion scripts
# mlsize writes (mlsize completion SHELL), as DIR/mlsize.bash, DIR/_mlsize, DIR/mlsize.fish.
file(MAKE_DIRECTORY ${DIR})
foreach(shell_file IN ITEMS "bash;mlsize.bash" "zsh;_mlsize" "fish;mlsize.fish")
  list(GET shell_file 0 shell)
  list(GET shell_file 1 name)
  execute_process(COMMAND ${MLSIZE} completion ${shell} OUTPUT_FILE ${DIR}/${name} RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "mlsize completion ${shell} failed: ${failed}")
  endif()
endforeach()
