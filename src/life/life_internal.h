/* Internal interfaces of the Life area: the grid steppers of the backends and the out-of-core
 * driver. Grids use the layout of bulk/life.h (rows of bulk_life_words(width) words, padding
 * bits 0). */
#ifndef BULK_BPBC_LIFE_INTERNAL_H
#define BULK_BPBC_LIFE_INTERNAL_H
#include <stddef.h>
#include <stdint.h>

#include "backend/tune.h"
#include "bulk/life.h"

/* Steps a grid in place by `steps` generations on `threads` CPU threads, `per_pass` generations
 * per pass over memory (0: chosen by size); isa (BULK_TUNE_ISA_*, the tuning life.isa) caps the
 * instruction set (AUTO: the widest this CPU runs). Returns BULK_OK or BULK_ERR_NOMEM. */
int life_cpu_step(uint64_t *cells, uint64_t width, uint64_t height, int torus,
                  const bulk_life_rule *rule, uint64_t steps, unsigned per_pass, int threads, int isa);

/* Seed 001's SINGLE-WORD (double_word = 0) or DOUBLE-WORD algorithm, one thread, one generation
 * per pass, Conway's rule only: the benchmark's peer and a test twin (life_seed.c). */
int life_cpu_step_seed(uint64_t *cells, uint64_t width, uint64_t height, int torus, uint64_t steps,
                       int double_word);

/* The GPU stepper is the CUDA Life table's (life/life_backend.h). */

/* 64 cells of a row starting at cell x (bit i = cell x + i). Cells outside [0, width) wrap when
 * torus, else read as 0. */
uint64_t life_row_get64(const uint64_t *row, uint64_t width, int torus, int64_t x);

/* ---- out of core (ooc.c) ------------------------------------------------------------------
 * A grid kept in a file (rows of bulk_life_words(width) words, row after row), stepped in tiles
 * with halos: seed 001 section 6.6. */
typedef struct life_ooc life_ooc;

/* A new all-dead width x height grid in a fresh file under dir (NULL: $TMPDIR or /tmp); tiles are
 * sized so that the cells in memory stay below max_memory bytes. */
int life_ooc_create(life_ooc **o, const char *dir, uint64_t width, uint64_t height,
                    uint64_t max_memory);
void life_ooc_free(life_ooc *o);
/* Whole rows (bulk_life_words(width) words). */
int life_ooc_read_row(life_ooc *o, uint64_t y, uint64_t *row);
int life_ooc_write_row(life_ooc *o, uint64_t y, const uint64_t *row);
/* `steps` generations, t per pass over the file (t <= 64), each tile on the context's backend.
 * Dead boundary: cells outside the grid are read as dead; callers keep live cells further than
 * `steps` cells from the edge (as the plane does), so the result is exact. */
int life_ooc_step(life_ooc *o, bulk_ctx *ctx, int torus, const bulk_life_rule *rule, uint64_t steps,
                  unsigned per_pass);

#endif
