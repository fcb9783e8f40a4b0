/* The ripple-carry adder of seed 001 section 5.1 as an and-inverter graph.
 *
 * Inputs a0..a{k-1} (variables 1..k), b0..b{k-1} (variables k+1..2k), least significant bit
 * first; outputs s0..s{k} with s{k} the carry out. Per bit i, with x = a_i, y = b_i, c = carry:
 *   g1 = x & y, g2 = !x & !y, t = !g1 & !g2 (= x ^ y)            3 gates
 *   h1 = t & c, h2 = !t & !c, s = !h1 & !h2 (= t ^ c)            3 gates (bit 0: s = t)
 *   carry' = g1 | h1 = !(!g1 & !h1)                              1 gate  (bit 0: carry' = g1)
 * so bit 0 costs 3 gates and every further bit 7: 7k - 4 in all. */
#include <stdlib.h>

#include "backend/report.h"
#include "bulk/circuit.h"

int bulk_circuit_adder(bulk_circuit **out, unsigned k)
{
    static const char fn[] = "bulk_circuit_adder";
    if (!out) return bulk_fail(NULL, BULK_ERR_ARG, "%s: out is NULL", fn);
    *out = NULL;
    if (k < 1 || k > 4096) return bulk_fail(NULL, BULK_ERR_ARG, "%s: k %u: must be 1..4096", fn, k);
    bulk_circuit *c = calloc(1, sizeof *c);
    if (!c) return bulk_fail(NULL, BULK_ERR_NOMEM, "%s: out of memory", fn);
    c->inputs = 2 * k;
    c->outputs = k + 1;
    c->ands = 7 * k - 4;
    c->maxvar = c->inputs + c->ands;
    c->latch_next = malloc(sizeof(uint32_t));
    c->latch_init = malloc(sizeof(uint32_t));
    c->out = malloc(sizeof(uint32_t) * c->outputs);
    c->and_rhs = malloc(sizeof(uint32_t) * 2 * c->ands);
    if (!c->latch_next || !c->latch_init || !c->out || !c->and_rhs) {
        bulk_circuit_free(c);
        return bulk_fail(NULL, BULK_ERR_NOMEM, "%s: k %u: out of memory", fn, k);
    }
    uint32_t next = c->inputs + 1, g = 0; /* next free variable, gate count */
#define AND(l0, l1) (c->and_rhs[2 * g] = (l0), c->and_rhs[2 * g + 1] = (l1), g++, 2 * next++)
    uint32_t carry = 0;
    for (unsigned i = 0; i < k; i++) {
        uint32_t x = 2 * (i + 1), y = 2 * (k + i + 1);
        uint32_t g1 = AND(x, y);
        uint32_t g2 = AND(x ^ 1, y ^ 1);
        uint32_t t = AND(g1 ^ 1, g2 ^ 1);
        if (i == 0) {
            c->out[0] = t;
            carry = g1;
            continue;
        }
        uint32_t h1 = AND(t, carry);
        uint32_t h2 = AND(t ^ 1, carry ^ 1);
        c->out[i] = AND(h1 ^ 1, h2 ^ 1);
        carry = AND(g1 ^ 1, h1 ^ 1) ^ 1; /* g1 | (t & carry) */
    }
#undef AND
    c->out[k] = carry;
    if (g != c->ands) {
        bulk_circuit_free(c);
        return bulk_fail(NULL, BULK_ERR_INTERNAL, "%s: k %u: %u gates built, %u expected", fn, k, g, 7 * k - 4);
    }
    *out = c;
    return BULK_OK;
}
