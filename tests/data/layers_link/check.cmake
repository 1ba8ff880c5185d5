# cmake -DREPARTSIM_SOURCE_DIR=... -DWORK=<scratch dir> -P check.cmake
# Proves the CMake layer libraries can fail: see CMakeLists.txt beside this file.
set(fixture ${CMAKE_CURRENT_LIST_DIR})
function(try_variant variant out_result out_output)
  set(dir ${WORK}/${variant})
  file(REMOVE_RECURSE ${dir})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${fixture} -B ${dir} -G Ninja
                          -DREPARTSIM_SOURCE_DIR=${REPARTSIM_SOURCE_DIR} -DLAYERS=layers_${variant}.txt
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(result EQUAL 0)
    execute_process(COMMAND ${CMAKE_COMMAND} --build ${dir}
                    RESULT_VARIABLE result OUTPUT_VARIABLE build_output ERROR_VARIABLE build_output)
    string(APPEND output "${build_output}")
  endif()
  set(${out_result} ${result} PARENT_SCOPE)
  set(${out_output} "${output}" PARENT_SCOPE)
endfunction()

try_variant(allowed result output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "layers_allowed.txt (high: low) should link:\n${output}")
endif()
try_variant(upward result output)
if(result EQUAL 0 OR NOT output MATCHES "LayersFixtureLow")
  message(FATAL_ERROR "layers_upward.txt (high without low) should fail to link on LayersFixtureLow:\n${output}")
endif()
try_variant(unlisted result output)
if(result EQUAL 0 OR NOT output MATCHES "which is not listed above it")
  message(FATAL_ERROR "layers_unlisted.txt should fail to configure (a layer not listed above):\n${output}")
endif()
message(STATUS "layer libraries: the allowed table links, the upward call does not, the unlisted layer is refused")
