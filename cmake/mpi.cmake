# Optional MPI for the distributed drivers of the bulk CLI (programs/dist/, docs/scale-out.md).
# MPI found: the CLI links MPI and uses programs/dist/comm_mpi.c, so `mpirun -np N bulk ...`
# runs distributed (a plain `bulk ...` still runs as one process). MPI absent: the one-process
# transport programs/dist/comm_single.c, same commands (started as several ranks of a launcher,
# that build refuses to run: programs/dist/dist_env.c). libbulk never links MPI.
# BULK_MPI=OFF forces the one-process transport.
#
# An optional dependency must never break the configure. FindMPI's own try_compile is fatal when
# the compiler wrapper names an include directory that does not exist (openmpi-bin installed
# without libopenmpi-dev: `mpicc -showme:compile` still prints -I.../openmpi/include), so
# FindMPI runs only after the wrapper has compiled and linked a small MPI program here, through
# execute_process, which cannot abort the configure. The wrapper is MPI_C_COMPILER when given,
# else mpicc on PATH (or under MPI_HOME). Anything short of that: OFF, with one status line
# saying why. A failed probe is not cached, so installing MPI and configuring again finds it.
option(BULK_MPI "Use MPI for the distributed drivers of the bulk CLI when it is found" ON)
set(BULK_HAVE_MPI OFF)
set(BULK_MPI_WHY "BULK_MPI=OFF")

# Sets BULK_MPI_PROBE_OK in the caller: 1 when the MPI compiler wrapper compiles and links an
# MPI program, else 0 with the reason in BULK_MPI_WHY.
function(bulk_mpi_probe)
  set(BULK_MPI_PROBE_OK 0 PARENT_SCOPE)
  if(MPI_C_COMPILER)
    set(wrapper "${MPI_C_COMPILER}")
  else()
    find_program(BULK_MPICC NAMES mpicc HINTS ${MPI_HOME} ENV MPI_HOME PATH_SUFFIXES bin)
    set(wrapper "${BULK_MPICC}")
    unset(BULK_MPICC CACHE) # looked up again at each configure (an install in between)
  endif()
  if(NOT wrapper)
    set(BULK_MPI_WHY "no MPI compiler wrapper (mpicc) found: install openmpi-bin and libopenmpi-dev"
        PARENT_SCOPE)
    return()
  endif()
  set(dir "${PROJECT_BINARY_DIR}/CMakeFiles/bulk_mpi_probe")
  file(MAKE_DIRECTORY "${dir}")
  file(WRITE "${dir}/hello.c" [=[
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank = 0;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d\n", rank);
    return MPI_Finalize() == MPI_SUCCESS ? 0 : 1;
}
]=])
  execute_process(COMMAND "${wrapper}" "${dir}/hello.c" -o "${dir}/hello"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  file(WRITE "${dir}/probe.log" "${wrapper} hello.c -o hello: exit ${rc}\n${out}")
  if(NOT rc EQUAL 0)
    if(out MATCHES "mpi\\.h")
      set(BULK_MPI_WHY "mpi.h not found: install libopenmpi-dev" PARENT_SCOPE)
    else()
      set(BULK_MPI_WHY "${wrapper} could not compile and link an MPI program (${dir}/probe.log)"
          PARENT_SCOPE)
    endif()
    return()
  endif()
  set(BULK_MPI_PROBE_OK 1 PARENT_SCOPE)
endfunction()

if(BULK_MPI)
  bulk_mpi_probe()
  if(BULK_MPI_PROBE_OK)
    find_package(MPI COMPONENTS C QUIET)
    if(MPI_C_FOUND)
      set(BULK_HAVE_MPI ON)
    else()
      set(BULK_MPI_WHY "FindMPI did not accept the MPI that compiled the probe")
    endif()
  endif()
endif()
if(BULK_HAVE_MPI)
  target_sources(bulk PRIVATE ${PROJECT_SOURCE_DIR}/programs/dist/comm_mpi.c)
  target_link_libraries(bulk PRIVATE MPI::MPI_C)
  find_program(BULK_MPIEXEC NAMES mpirun mpiexec HINTS ${MPI_HOME} PATHS ${MPIEXEC_EXECUTABLE})
  if(MPIEXEC_EXECUTABLE)
    set(BULK_MPIEXEC ${MPIEXEC_EXECUTABLE})
  endif()
  message(STATUS "bulk: MPI for the distributed CLI ON")
else()
  target_sources(bulk PRIVATE ${PROJECT_SOURCE_DIR}/programs/dist/comm_single.c)
  message(STATUS "bulk: MPI for the distributed CLI OFF (${BULK_MPI_WHY})")
endif()
