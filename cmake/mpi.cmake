# Optional MPI for the distributed drivers of the bulk CLI (programs/dist_*.c, docs/scale-out.md).
# MPI found: the CLI links MPI and uses programs/dist/comm_mpi.c, so `mpirun -np N bulk ...`
# runs distributed (a plain `bulk ...` still runs as one process). MPI absent: the one-process
# transport programs/dist/comm_single.c, same commands. libbulk never links MPI.
# BULK_MPI=OFF forces the one-process transport.
option(BULK_MPI "Use MPI for the distributed drivers of the bulk CLI when it is found" ON)
set(BULK_HAVE_MPI OFF)
if(BULK_MPI)
  find_package(MPI COMPONENTS C QUIET)
  if(MPI_C_FOUND)
    set(BULK_HAVE_MPI ON)
  endif()
endif()
if(BULK_HAVE_MPI)
  target_sources(bulk PRIVATE ${PROJECT_SOURCE_DIR}/programs/dist/comm_mpi.c)
  target_link_libraries(bulk PRIVATE MPI::MPI_C)
  find_program(BULK_MPIEXEC NAMES mpirun mpiexec HINTS ${MPI_HOME} PATHS ${MPIEXEC_EXECUTABLE})
  if(MPIEXEC_EXECUTABLE)
    set(BULK_MPIEXEC ${MPIEXEC_EXECUTABLE})
  endif()
else()
  target_sources(bulk PRIVATE ${PROJECT_SOURCE_DIR}/programs/dist/comm_single.c)
endif()
message(STATUS "bulk: MPI for the distributed CLI ${BULK_HAVE_MPI}")
