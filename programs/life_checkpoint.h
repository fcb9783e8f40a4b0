/* Checkpoints of `bulk life run --checkpoint FILE` (docs/life.md). A text header, the --every
 * lines printed so far, then the live cells' bounding box as packed words with a checksum:
 *
 *   bulk-life-checkpoint 1
 *   input <16 hex digits>       hash of the input pattern as read (life_ckpt_pattern_hash)
 *   rule B3/S23                 the rule in force (after --rule)
 *   topology plane | torus WxH
 *   every K                     --every (0 without it)
 *   generation G
 *   box X Y W H                 the live cells' bounding box, in the universe's coordinates
 *   lines BYTES                 then BYTES bytes: the --every lines printed so far
 *   cells WORDS <16 hex digits> then WORDS 64-bit little-endian words (H rows of ceil(W/64)),
 *                               the hex digits their checksum
 *   end
 *
 * The file is written atomically (util/atomic_file.h): a kill leaves the previous
 * checkpoint or the new one, never a mix. */
#ifndef BULK_PROGRAMS_LIFE_CHECKPOINT_H
#define BULK_PROGRAMS_LIFE_CHECKPOINT_H
#include <stddef.h>
#include <stdint.h>

#include "bulk/life.h"

typedef struct life_ckpt {
    uint64_t input;       /* life_ckpt_pattern_hash of the input */
    char rule[32];        /* bulk_life_rule_format */
    char topology[64];    /* "plane" or "torus WxH" */
    uint64_t every;
    uint64_t generation;
    bulk_life_pattern box; /* x, y, width, height, cells (read: malloc'ed) */
    char *lines;           /* the --every lines (read: malloc'ed, NUL-terminated) */
    size_t lines_len;
} life_ckpt;

/* A 64-bit hash of a pattern's position, size, generation and cells. */
uint64_t life_ckpt_pattern_hash(const bulk_life_pattern *p);

/* 0, or -1 with errno set. */
int life_ckpt_write(const char *path, const life_ckpt *c);

/* 1: no file at path (c untouched); 0: read (free with life_ckpt_free); -1: malformed (err says
 * what and at which line); -2: it cannot be read (err says why). */
int life_ckpt_read(const char *path, life_ckpt *c, char *err, size_t errlen);

void life_ckpt_free(life_ckpt *c);

#endif
