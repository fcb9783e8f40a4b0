/* `bulk int OP ...` in one process (int_run.c): the whole command of docs/int.md "CLI" without
 * the MPI dispatch, which cmd_int.c does before. Returns the exit code. */
#ifndef BULK_PROGRAMS_INT_RUN_H
#define BULK_PROGRAMS_INT_RUN_H

int int_run(int argc, char **argv);

#endif
