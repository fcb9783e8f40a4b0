/* The subcommands of the bulk CLI. Each takes (argc, argv) with argv[0] = its own name and
 * returns the process exit code (see cli.h). One file per subcommand. */
#ifndef BULK_PROGRAMS_COMMANDS_H
#define BULK_PROGRAMS_COMMANDS_H

int cmd_info(int argc, char **argv);
int cmd_circuit(int argc, char **argv);
int cmd_cky(int argc, char **argv);
int cmd_collatz(int argc, char **argv);
int cmd_life(int argc, char **argv);
int cmd_int(int argc, char **argv);
int cmd_gcd(int argc, char **argv);
int cmd_dist(int argc, char **argv);

#endif
