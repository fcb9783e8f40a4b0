# The Python extension bulk._bulk (python/src/*.c, CPython C API over the public headers of
# include/bulk only) and the package python/bulk/.
#
#   pip install .          scikit-build-core (pyproject.toml) configures this project with SKBUILD
#                          set: the top-level CMakeLists.txt then builds the library and the
#                          extension only, and the extension goes into the wheel's bulk/.
#   a CMake build          BULK_PYTHON=AUTO (default) builds the extension into
#                          <build>/python/bulk/ next to a copy of the package's .py files, for
#                          the pytest run of tests/python (ctest), when a Python interpreter with
#                          its development headers is found; ON makes that a requirement; OFF
#                          leaves it out. Sanitizer and fuzz builds leave it out (an
#                          instrumented extension needs the sanitizer runtime preloaded into
#                          the interpreter).
# The extension links the static library (position-independent objects), so the wheel holds one
# self-contained shared object: CUDA is in it when the library was built with it (BULK_CUDA,
# decided exactly as for `make`).
set(BULK_PYTHON "AUTO" CACHE STRING "Build the Python extension (python/): AUTO, ON, OFF")
set_property(CACHE BULK_PYTHON PROPERTY STRINGS AUTO ON OFF)
set(BULK_HAVE_PYTHON OFF)
if(SKBUILD)
  set(BULK_PYTHON ON)
  include(${PROJECT_SOURCE_DIR}/cmake/gcd.cmake) # PEM/DER keys for bulk.gcd.read_keys
elseif(BULK_SANITIZE OR BULK_FUZZ)
  set(BULK_PYTHON OFF)
endif()
if(NOT BULK_PYTHON STREQUAL "OFF")
  if(BULK_PYTHON STREQUAL "ON")
    find_package(Python 3.8 REQUIRED COMPONENTS Interpreter Development.Module)
  else()
    find_package(Python 3.8 QUIET COMPONENTS Interpreter Development.Module)
  endif()
  if(Python_FOUND)
    set(BULK_HAVE_PYTHON ON)
  endif()
endif()
message(STATUS "bulk: Python extension ${BULK_HAVE_PYTHON}")

if(BULK_HAVE_PYTHON)
  file(GLOB BULK_PY_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/python/src/*.c)
  Python_add_library(bulk_python MODULE WITH_SOABI ${BULK_PY_SOURCES})
  set_target_properties(bulk_python PROPERTIES OUTPUT_NAME _bulk C_VISIBILITY_PRESET hidden)
  # include/ only (through bulk_static): the extension is a client of the public API
  target_link_libraries(bulk_python PRIVATE bulk_static)
  if(SKBUILD)
    install(TARGETS bulk_python LIBRARY DESTINATION bulk)
  else()
    # <build>/python is an importable copy of the package: the .py files are copied on every
    # build (cheap), the extension is written beside them
    set(BULK_PY_TREE ${PROJECT_BINARY_DIR}/python)
    set_target_properties(bulk_python PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${BULK_PY_TREE}/bulk)
    add_custom_target(bulk_python_files ALL
                      COMMAND ${CMAKE_COMMAND} -E copy_directory ${PROJECT_SOURCE_DIR}/python/bulk
                              ${BULK_PY_TREE}/bulk
                      COMMENT "Copying the Python package into ${BULK_PY_TREE}")
    add_dependencies(bulk_python bulk_python_files)
  endif()
endif()
