/* The grammar behind the opaque bulk_grammar: the text as read (for tests that check the
 * conversion) and its Chomsky normal form (for the parsers). Internal to src/cky. */
#ifndef BULK_CKY_GRAMMAR_H
#define BULK_CKY_GRAMMAR_H
#include <stddef.h>
#include <stdint.h>

#include "bulk/cky.h"

/* A context-free grammar as written. A right-hand-side symbol s >= 0 is non-terminal s;
 * s < 0 is terminal -s-1. */
typedef struct bulk_cfg {
    uint32_t nnt, nterm, nrules;
    char **nt_names;     /* [nnt] */
    char **term_names;   /* [nterm] (one byte each in BULK_CKY_CHARS mode) */
    uint32_t *rule_lhs;  /* [nrules] */
    uint32_t *rule_off;  /* [nrules+1]: rule r has rhs[rule_off[r] .. rule_off[r+1]) */
    int32_t *rhs;
    uint32_t start;      /* 0: the first left-hand side */
} bulk_cfg;

struct bulk_grammar {
    int mode;
    bulk_cfg cfg; /* as read; for random grammars the CNF itself */
    /* Chomsky normal form. Non-terminal 0 is the start symbol. */
    uint32_t nnt, nterm;
    int accepts_empty;
    size_t nbin;
    uint32_t *bin;       /* [3*nbin] (A, B, C), sorted by B, then A, then C; no duplicates */
    uint32_t *bstart;    /* [nnt+1]: rules with B = b are bin[3*bstart[b] .. 3*bstart[b+1]) */
    uint32_t *ac;        /* [2*nbin]: (A, C) of the same rules, for the word step */
    uint32_t *astart;    /* [nnt+1]: rules with A = a are bc[2*astart[a] .. 2*astart[a+1]) */
    uint32_t *bc;        /* [2*nbin]: (B, C) of the rules in (A, B, C) order */
    uint32_t nb;         /* B's that have rules, increasing: blist[0 .. nb) */
    uint32_t *blist;
    uint32_t nslice;     /* slices of the rule list: the B's blist[slice[k] .. slice[k+1]) */
    uint32_t *slice;     /* [nslice+1]; about BULK_CKY_SLICE_RULES rules each (whole B groups) */
    size_t nun;
    uint32_t *ustart;    /* [nterm+1]: non-terminals producing terminal t are ulist[ustart[t]..] */
    uint32_t *ulist;
    int32_t byte_term[256]; /* BULK_CKY_CHARS: byte -> terminal index or -1 */
    char **sorted_terms;    /* BULK_CKY_TOKENS: terminal names sorted, for lookup */
    uint32_t *sorted_idx;
};

enum { BULK_CKY_SLICE_RULES = 2048 };

/* cfg.c: text -> bulk_cfg. Returns 0 or BULK_ERR_PARSE/NOMEM with the message in err. */
int bulk_cfg_parse(bulk_cfg *cfg, const char *text, size_t len, const char *name, int mode, char *err,
                   size_t errlen);
void bulk_cfg_clear(bulk_cfg *cfg);

/* cnf.c: fills the CNF part of g from g->cfg (and the terminal lookup tables). */
int bulk_cnf_build(bulk_grammar *g);
/* cnf.c: given CNF triples (A,B,C) and unary pairs (A,t) in any order, with duplicates, sorts,
 * deduplicates and fills bin/bstart/ac/ustart/ulist/nbin/nun. Takes ownership of nothing. */
int bulk_cnf_index(bulk_grammar *g, uint32_t *bin, size_t nbin, const uint32_t *un, size_t nun);

#endif
