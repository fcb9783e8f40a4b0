/* libFuzzer target: AIGER, ASCII (aag) and binary (aig), through bulk_circuit_parse (the format
 * is chosen by the first line, as for a file). A circuit that was read is written back in both
 * formats and read again; both readings must give the same graph (aig may swap the operands of
 * a gate: it stores them sorted). */
#include <stdio.h>
#include <string.h>

#include "bulk/circuit.h"
#include "fuzz_util.h"

/* Round trips only for circuits of at most this many variables (the output is that long). */
#define ROUND_TRIP_VARS 65536u

static int same_graph(const bulk_circuit *a, const bulk_circuit *b)
{
    if (a->maxvar != b->maxvar || a->inputs != b->inputs || a->latches != b->latches ||
        a->outputs != b->outputs || a->ands != b->ands)
        return 0;
    for (uint32_t o = 0; o < a->outputs; o++)
        if (a->out[o] != b->out[o]) return 0;
    for (uint32_t l = 0; l < a->latches; l++)
        if (a->latch_next[l] != b->latch_next[l] || a->latch_init[l] != b->latch_init[l]) return 0;
    for (uint32_t g = 0; g < a->ands; g++) {
        uint32_t x0 = a->and_rhs[2 * g], x1 = a->and_rhs[2 * g + 1];
        uint32_t y0 = b->and_rhs[2 * g], y1 = b->and_rhs[2 * g + 1];
        if (!((x0 == y0 && x1 == y1) || (x0 == y1 && x1 == y0))) return 0;
    }
    return 1;
}

static void round_trip(const bulk_circuit *c, int binary)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    FUZZ_REQUIRE(f != NULL, "open_memstream");
    int st = binary ? bulk_circuit_write_aig(c, f) : bulk_circuit_write_aag(c, f);
    FUZZ_REQUIRE(fclose(f) == 0 && st == BULK_OK, "writing %s: status %d", binary ? "aig" : "aag", st);
    bulk_circuit *back = NULL;
    const char *err = bulk_ctx_last_error(NULL);
    st = bulk_circuit_parse(&back, buf, len, "round trip");
    FUZZ_REQUIRE(st == BULK_OK, "the %s written is not read back: %s", binary ? "aig" : "aag", err);
    FUZZ_REQUIRE(same_graph(c, back), "the %s round trip changed the circuit", binary ? "aig" : "aag");
    bulk_circuit_free(back);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bulk_circuit *c = NULL;
    const char *err = bulk_ctx_last_error(NULL);
    int st = bulk_circuit_parse(&c, data, size, "fuzz.aag");
    if (st != BULK_OK) {
        FUZZ_REQUIRE(c == NULL, "status %d with a circuit", st);
        FUZZ_REQUIRE(st != BULK_ERR_PARSE || strncmp(err, "bulk_circuit_parse: fuzz.aag:", 29) == 0,
                     "a parse error without file:line: '%s'", err);
        return 0;
    }
    FUZZ_REQUIRE(c->maxvar == c->inputs + c->latches + c->ands, "maxvar %u != %u + %u + %u",
                 c->maxvar, c->inputs, c->latches, c->ands);
    for (uint32_t g = 0; g < c->ands; g++) /* the documented topological order */
        FUZZ_REQUIRE(c->and_rhs[2 * g] / 2 < c->inputs + c->latches + 1 + g &&
                         c->and_rhs[2 * g + 1] / 2 < c->inputs + c->latches + 1 + g,
                     "gate %u uses a later variable", g);
    if (c->maxvar <= ROUND_TRIP_VARS) {
        round_trip(c, 0);
        round_trip(c, 1);
    }
    bulk_circuit_free(c);
    return 0;
}
