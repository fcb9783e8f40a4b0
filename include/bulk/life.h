/* Life-like cellular automata on bit-packed universes (seed 001 chapters 5-6).
 *
 * Cells are stored one bit each: a grid of `width` x `height` cells is `height` rows of
 * bulk_life_words(width) 64-bit words; bit i of word j of row y is the cell (64 j + i, y); x grows
 * to the right, y downwards. Bits of the last word beyond `width` are always 0.
 *
 * Rules are outer-totalistic ("Life-like"): a dead cell with n live neighbours (of its 8) is born
 * when bit n of `birth` is set; a live cell survives when bit n of `survive` is set.
 *
 * Two kinds of boundary:
 *   torus  the grid wraps around in both directions (any width and height >= 1);
 *   dead   cells outside the grid are permanently dead (what a tile or a bounded plane needs).
 * The universe object (bulk_life) adds the unbounded plane: a dead-boundary grid that is kept at
 * least one pass of generations larger than the live cells, so the boundary never matters.
 *
 * Every function returns BULK_OK or a negative status (bulk.h); a failure sets the last error
 * (bulk_ctx_last_error): the context's for functions that take one (directly or through the
 * universe), else the calling thread's (ctx NULL). Functions that return a count or a flag
 * return 0 for a NULL argument and set the calling thread's last error. Results never depend on
 * the backend, the thread count, the number of generations computed per pass or whether the
 * universe was held in memory or streamed from disk. */
#ifndef BULK_LIFE_H
#define BULK_LIFE_H

#include "bulk/bulk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- rules ------------------------------------------------------------------------------- */

typedef struct bulk_life_rule {
    uint16_t birth;   /* bit n (0..8): born with n live neighbours */
    uint16_t survive; /* bit n (0..8): survives with n live neighbours */
} bulk_life_rule;

/* Conway's Life, B3/S23. */
BULK_API bulk_life_rule bulk_life_rule_conway(void);

/* Parses B/S notation: "B3/S23", "b36/s23", "S23/B3", "B3678/S34678", "B/S012345678", and the
 * old "23/3" (survival/birth) form. Digits 0..8, each at most once per part. On BULK_ERR_PARSE,
 * *err_col (when not NULL) is the 1-based column of the offending character, and the last error
 * "bulk_life_rule_parse: 'text': column N: ...". */
BULK_API int bulk_life_rule_parse(bulk_life_rule *rule, const char *text, size_t *err_col);

/* Writes "B<digits>/S<digits>" (at most 24 bytes with the NUL) into buf[0..cap); BULK_ERR_ARG
 * when cap < 24 or the rule has bits above 8. */
BULK_API int bulk_life_rule_format(const bulk_life_rule *rule, char *buf, size_t cap);

/* ---- patterns (RLE and plain text) ----------------------------------------------------------- */

typedef struct bulk_life_pattern {
    int64_t x, y;            /* coordinates of the top-left cell of the rectangle */
    uint64_t width, height;  /* the rectangle (0 x 0 for an empty pattern) */
    uint64_t *cells;         /* height rows of bulk_life_words(width) words, layout as above */
    /* The frame: the rectangle a file states (RLE header "x = W, y = H"; plain text: its longest
     * line by its rows). The readers keep only the live cells' bounding box as the rectangle
     * above, at (frame_dx, frame_dy) of the frame, so a large stated frame around a few cells
     * costs no memory. On a torus the frame is what must fit and what is placed at (0, 0).
     * All 0 (patterns built in memory): the frame is the rectangle itself. */
    uint64_t frame_width, frame_height;
    uint64_t frame_dx, frame_dy;
    bulk_life_rule rule;     /* the file's rule (Conway's when the file names none) */
    int has_rule;            /* the file stated a rule */
    int has_pos;             /* the file had #CXRLE Pos=x,y (x, y come from it) */
    uint64_t generation;     /* #CXRLE Gen=g, else 0 */
} bulk_life_pattern;

/* Words per row of a grid `width` cells wide. */
static inline uint64_t bulk_life_words(uint64_t width) { return (width + 63) / 64; }

/* Reads RLE (header "x = W, y = H[, rule = R]", '#' lines, "#CXRLE Pos=x,y Gen=g") or, when the
 * text has no RLE header, a plain-text pattern ('.' dead, 'O' or '*' alive, '!' comment lines).
 * Malformed input gives BULK_ERR_PARSE (unknown character, a row longer than the stated width,
 * more rows than the stated height, missing '!', bad header, bad rule) with the last error
 * "bulk_life_pattern_read: name:line:column: reason" (1-based; `name` labels messages, NULL:
 * "pattern"). On failure p holds nothing to free. The result is the live cells' bounding box
 * (x, y: its top-left cell, the file's coordinates) inside the stated frame; the memory it
 * takes does not depend on the header's W and H. Thread-safe. */
BULK_API int bulk_life_pattern_read(bulk_life_pattern *p, const char *text, size_t len,
                                    const char *name);
/* The same from a file, named by its path in messages (BULK_ERR_IO when it cannot be read:
 * "bulk_life_pattern_read_file: path: cannot open: why"). */
BULK_API int bulk_life_pattern_read_file(bulk_life_pattern *p, const char *path);

/* Formats p as RLE the way Golly writes it: "#CXRLE Pos=x,y Gen=g", the header with the rule,
 * runs of 'b', 'o' and '$', lines of at most 70 characters, '!' at the end. *text is malloc'ed
 * and NUL-terminated (free() it); *len is its length. */
BULK_API int bulk_life_pattern_write_rle(const bulk_life_pattern *p, char **text, size_t *len);

/* Shrinks p to the bounding box of its live cells (an empty pattern becomes 0 x 0 at x, y). */
BULK_API int bulk_life_pattern_crop(bulk_life_pattern *p);

BULK_API void bulk_life_pattern_free(bulk_life_pattern *p);

/* ---- grids ------------------------------------------------------------------------------- */

/* Advances a width x height grid by `steps` generations in place on the context's backend.
 * torus != 0: wraps around; 0: dead boundary. `per_pass` generations are computed per pass over
 * memory (0 picks one). The CUDA backend copies the grid to the device and back. */
BULK_API int bulk_life_grid_step(bulk_ctx *ctx, uint64_t *cells, uint64_t width, uint64_t height,
                                 int torus, const bulk_life_rule *rule, uint64_t steps,
                                 unsigned per_pass);

/* Live cells of a grid. */
BULK_API uint64_t bulk_life_grid_population(const uint64_t *cells, uint64_t width, uint64_t height);

/* ---- universes ------------------------------------------------------------------------------ */

typedef struct bulk_life_options {
    bulk_life_rule rule;
    int torus;                     /* 1: torus_width x torus_height torus; 0: unbounded plane */
    uint64_t torus_width, torus_height;
    uint64_t max_memory;           /* bytes of memory the cells may use; 0 = no limit. A universe
                                      that does not fit is streamed in tiles from a file */
    const char *tmp_dir;           /* where the out-of-core files go (NULL: $TMPDIR or /tmp) */
    unsigned per_pass;             /* generations per pass (0 picks one) */
} bulk_life_options;

typedef struct bulk_life bulk_life;

/* Places pattern p in a new universe. On a torus the top-left cell of the pattern's frame is
 * (0, 0) of the torus; BULK_ERR_ARG when the frame is larger than the torus. On the plane
 * coordinates are the pattern's own (p->x, p->y). The universe keeps a reference to ctx (which
 * must outlive it). */
BULK_API int bulk_life_create(bulk_life **u, bulk_ctx *ctx, const bulk_life_pattern *p,
                              const bulk_life_options *opt);
BULK_API void bulk_life_free(bulk_life *u);

/* Advances the universe by `steps` generations. Reports progress ("life.run", "generations",
 * counted from 0 in this call) through the context's callback; a torus is then stepped in
 * chunks of about a tenth of a second. BULK_ERR_CANCELLED when the callback asks to stop: the
 * universe is then consistent at the generation bulk_life_generation gives (between the start
 * and the target). BULK_ERR_ARG when the universe streams from disk and max_memory is too small
 * for one tile; BULK_ERR_IO when its file fails. */
BULK_API int bulk_life_step(bulk_life *u, uint64_t steps);
BULK_API uint64_t bulk_life_generation(const bulk_life *u);
BULK_API int bulk_life_population(bulk_life *u, uint64_t *population);
/* Cells computed per generation at present: the torus, or the grid that holds the plane's live
 * cells with their margin (what a rate of cell updates counts). */
BULK_API uint64_t bulk_life_grid_cells(const bulk_life *u);
/* 1 when the universe streams tiles from disk. */
BULK_API int bulk_life_out_of_core(const bulk_life *u);

/* The live cells as a pattern cropped to their bounding box, in the universe's coordinates (the
 * torus's or the plane's), with the rule and generation filled in and has_pos = 1. */
BULK_API int bulk_life_extract(bulk_life *u, bulk_life_pattern *out);

/* Cells of the rectangle [x, x + w) x [y, y + h) (torus coordinates wrap) into a fresh pattern. */
BULK_API int bulk_life_region(bulk_life *u, int64_t x, int64_t y, uint64_t w, uint64_t h,
                              bulk_life_pattern *out);

#ifdef __cplusplus
}
#endif
#endif
