/* The operations of `bulk int`: names and the shape of an instance. */
#ifndef BULK_PROGRAMS_INT_OPS_H
#define BULK_PROGRAMS_INT_OPS_H

typedef enum int_op {
    INT_OP_ADD,
    INT_OP_SUB,
    INT_OP_MUL,
    INT_OP_SQR,
    INT_OP_DIV,
    INT_OP_MOD,
    INT_OP_DIVMOD,
    INT_OP_GCD,
    INT_OP_POWMOD,
    INT_OP_CMP,
    INT_OP_ISPRIME,
    INT_OP_NEXTPRIME,
    INT_OP_COUNT
} int_op;

typedef struct int_op_desc {
    const char *name;
    int operands;     /* per instance */
    int nonzero;      /* operand that must not be 0 (the divisor), or -1 */
    int odd;          /* operand that must be odd (the modulus), or -1 */
    const char *form; /* the operands, for help texts: "A B", "BASE EXP MOD" */
    const char *what; /* what one output line holds */
} int_op_desc;

/* The op called `name`, or -1. */
int int_op_find(const char *name);
const int_op_desc *int_op_get(int_op op);
/* "add sub mul ..." for usage texts. */
const char *int_op_names(void);

#endif
