/* bulk int OP: under an MPI launcher the distributed run (dist_int.c, docs/scale-out.md), else
 * the one-process run (int_run.c); both end in int_run, so neither depends on this file. */
#include "commands.h"
#include "dist.h"
#include "int_run.h"

int cmd_int(int argc, char **argv)
{
    if (dist_launched()) return dist_int_main(argc, argv);
    return int_run(argc, argv);
}
