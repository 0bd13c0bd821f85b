# `pip install .` builds in an isolated environment: pip installs pybind11 and the cmeel-eigen
# wheel into a new temporary folder for every install, with new file times. Compiling against
# them in place changes every compile command and every header's time, so ninja rebuilt all
# objects on each install. graphfn_stable_headers copies such a header tree into the build
# folder once per version and names the copy: compile commands and header times then stay the
# same from one install to the next, and an install after a one-file change rebuilds that file.
function(graphfn_stable_headers name version source out_var)
  set(copy "${CMAKE_BINARY_DIR}/stable-headers/${name}")
  set(stamp "${copy}.version")
  set(copied_version "")
  if(EXISTS "${stamp}")
    file(READ "${stamp}" copied_version)
  endif()
  if(NOT copied_version STREQUAL "${version}" OR NOT IS_DIRECTORY "${copy}")
    message(STATUS "Copying ${name} ${version} headers from ${source}")
    file(REMOVE_RECURSE "${copy}")
    file(COPY "${source}/" DESTINATION "${copy}")
    file(WRITE "${stamp}" "${version}")
  endif()
  set(${out_var} "${copy}" PARENT_SCOPE)
endfunction()
