/* The table of `bulk int` operations (see int_ops.h). */
#include "int_ops.h"

#include <string.h>

static const int_op_desc ops[INT_OP_COUNT] = {
    [INT_OP_ADD] = { "add", 2, -1, -1, "A B", "A + B, exact (the carry included)" },
    [INT_OP_SUB] = { "sub", 2, -1, -1, "A B", "A - B, exact and signed (e.g. -5)" },
    [INT_OP_MUL] = { "mul", 2, -1, -1, "A B", "A * B, the full product" },
    [INT_OP_SQR] = { "sqr", 1, -1, -1, "A", "A * A, the full square" },
    [INT_OP_DIV] = { "div", 2, 1, -1, "A D", "floor(A / D)" },
    [INT_OP_MOD] = { "mod", 2, 1, -1, "A D", "A mod D" },
    [INT_OP_DIVMOD] = { "divmod", 2, 1, -1, "A D", "floor(A / D) and A mod D: 'q r'" },
    [INT_OP_GCD] = { "gcd", 2, -1, -1, "A B", "gcd(A, B); gcd(0, 0) = 0" },
    [INT_OP_POWMOD] = { "powmod", 3, -1, 2, "BASE EXP MOD", "BASE^EXP mod MOD, MOD odd" },
    [INT_OP_CMP] = { "cmp", 2, -1, -1, "A B", "-1, 0 or 1 as A < B, A = B, A > B" },
    [INT_OP_ISPRIME] = { "isprime", 1, -1, -1, "N", "1 for a probable prime, else 0" },
    [INT_OP_NEXTPRIME] = { "nextprime", 1, -1, -1, "N", "the least probable prime > N" },
};

int int_op_find(const char *name)
{
    for (int i = 0; i < INT_OP_COUNT; i++)
        if (strcmp(ops[i].name, name) == 0) return i;
    return -1;
}

const int_op_desc *int_op_get(int_op op) { return &ops[op]; }

const char *int_op_names(void) { return "add sub mul sqr div mod divmod gcd powmod cmp isprime nextprime"; }
