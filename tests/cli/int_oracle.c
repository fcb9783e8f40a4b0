/* The independent oracle of the `bulk int` CLI tests: GMP's mpz, with its own text parsing and
 * printing, and no code of libbulk.
 *
 *   int_oracle gen OP BITS COUNT SEED    prints COUNT random input lines for OP with operands of
 *                                        at most BITS bits, in varied spellings
 *   int_oracle eval OP [--hex]           reads input lines on stdin, prints the expected output
 *
 * gen mixes uniformly random operands of random length with structured ones (0, 1, 2^k,
 * 2^k - 1, all ones at BITS, equal operands, a < b) and writes them in decimal, 0x/0X hex with
 * lower- or uppercase digits and leading zeros, separated by runs of spaces and tabs, with
 * optional surrounding blanks and CRLF line ends. Divisors are never 0 and powmod moduli are
 * odd, so every generated line is valid input. */
#define _POSIX_C_SOURCE 200809L
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int operands_of(const char *op)
{
    if (strcmp(op, "sqr") == 0) return 1;
    if (strcmp(op, "powmod") == 0) return 3;
    return 2;
}

static const char *const known_ops[] = { "add", "sub", "mul", "sqr", "div", "mod",
                                         "divmod", "gcd", "powmod", "cmp" };

static int known(const char *op)
{
    for (size_t i = 0; i < sizeof known_ops / sizeof known_ops[0]; i++)
        if (strcmp(op, known_ops[i]) == 0) return 1;
    return 0;
}

/* A structured or random value of at most `bits` bits. */
static void pick(mpz_t x, gmp_randstate_t rs, unsigned long bits)
{
    unsigned long kind = gmp_urandomm_ui(rs, 10);
    unsigned long k = gmp_urandomm_ui(rs, bits + 1); /* 0..bits */
    switch (kind) {
    case 0: mpz_set_ui(x, gmp_urandomm_ui(rs, 3)); break;        /* 0, 1, 2 */
    case 1: mpz_set_ui(x, 0); mpz_setbit(x, k < bits ? k : bits - 1); break; /* 2^k */
    case 2: mpz_set_ui(x, 0); mpz_setbit(x, k); mpz_sub_ui(x, x, 1); break; /* 2^k - 1 */
    case 3: mpz_set_ui(x, 0); mpz_setbit(x, bits); mpz_sub_ui(x, x, 1); break; /* all ones */
    case 4: mpz_rrandomb(x, rs, k ? k : 1); break;                 /* long runs of 0s and 1s */
    default: mpz_urandomb(x, rs, k); break;                        /* random, random length */
    }
}

static void print_operand(const mpz_t x, gmp_randstate_t rs)
{
    unsigned long style = gmp_urandomm_ui(rs, 6);
    if (style < 3) {
        gmp_printf("%Zd", x);
        return;
    }
    char *s = mpz_get_str(NULL, 16, x);
    printf("0%c", style == 5 ? 'X' : 'x');
    if (style == 4) printf("00");
    for (char *p = s; *p; p++) putchar(style == 5 ? (*p >= 'a' ? *p - 'a' + 'A' : *p) : *p);
    free(s);
}

static void print_sep(gmp_randstate_t rs)
{
    static const char *const seps[] = { " ", " ", " ", "  ", "\t", " \t " };
    fputs(seps[gmp_urandomm_ui(rs, 6)], stdout);
}

static int gen(const char *op, unsigned long bits, unsigned long count, unsigned long seed)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, seed);
    int n = operands_of(op);
    int division = strcmp(op, "div") == 0 || strcmp(op, "mod") == 0 || strcmp(op, "divmod") == 0;
    int powmod = strcmp(op, "powmod") == 0;
    mpz_t v[3];
    for (int k = 0; k < 3; k++) mpz_init(v[k]);
    for (unsigned long line = 0; line < count; line++) {
        for (int k = 0; k < n; k++) pick(v[k], rs, bits);
        unsigned long shape = gmp_urandomm_ui(rs, 8);
        if (n >= 2 && shape == 0) mpz_set(v[1], v[0]);                       /* equal */
        if (n >= 2 && shape == 1 && mpz_cmp(v[0], v[1]) > 0) mpz_swap(v[0], v[1]); /* a < b */
        if (division && mpz_sgn(v[1]) == 0) mpz_set_ui(v[1], 1 + gmp_urandomm_ui(rs, 1000));
        if (powmod) {
            mpz_setbit(v[2], 0); /* odd; still within bits */
            if (mpz_sizeinbase(v[1], 2) > 256 && gmp_urandomm_ui(rs, 2))
                mpz_tdiv_q_2exp(v[1], v[1], mpz_sizeinbase(v[1], 2) - 256); /* keep it quick */
        }
        if (gmp_urandomm_ui(rs, 8) == 0) print_sep(rs); /* leading blanks */
        for (int k = 0; k < n; k++) {
            if (k) print_sep(rs);
            print_operand(v[k], rs);
        }
        if (gmp_urandomm_ui(rs, 8) == 0) print_sep(rs); /* trailing blanks */
        fputs(gmp_urandomm_ui(rs, 10) == 0 ? "\r\n" : "\n", stdout);
    }
    for (int k = 0; k < 3; k++) mpz_clear(v[k]);
    gmp_randclear(rs);
    return 0;
}

static void parse(mpz_t x, const char *tok)
{
    int ok = (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) ? mpz_set_str(x, tok + 2, 16)
                                                                 : mpz_set_str(x, tok, 10);
    if (ok != 0) {
        fprintf(stderr, "int_oracle: bad operand '%s'\n", tok);
        exit(2);
    }
}

static void put(const mpz_t x, int hex)
{
    if (!hex) {
        gmp_printf("%Zd", x);
        return;
    }
    mpz_t m;
    mpz_init(m);
    mpz_abs(m, x);
    gmp_printf("%s0x%Zx", mpz_sgn(x) < 0 ? "-" : "", m); /* %Zx: lowercase digits */
    mpz_clear(m);
}

static int eval(const char *op, int hex)
{
    int n = operands_of(op);
    char *line = NULL;
    size_t cap = 0;
    mpz_t v[3], r, q;
    for (int k = 0; k < 3; k++) mpz_init(v[k]);
    mpz_init(r);
    mpz_init(q);
    while (getline(&line, &cap, stdin) >= 0) {
        int k = 0;
        for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
            if (k == n) {
                fprintf(stderr, "int_oracle: extra operand\n");
                return 2;
            }
            parse(v[k++], tok);
        }
        if (k != n) {
            fprintf(stderr, "int_oracle: missing operand\n");
            return 2;
        }
        if (strcmp(op, "add") == 0) mpz_add(r, v[0], v[1]);
        else if (strcmp(op, "sub") == 0) mpz_sub(r, v[0], v[1]);
        else if (strcmp(op, "mul") == 0) mpz_mul(r, v[0], v[1]);
        else if (strcmp(op, "sqr") == 0) mpz_mul(r, v[0], v[0]);
        else if (strcmp(op, "div") == 0) mpz_fdiv_q(r, v[0], v[1]);
        else if (strcmp(op, "mod") == 0) mpz_fdiv_r(r, v[0], v[1]);
        else if (strcmp(op, "gcd") == 0) mpz_gcd(r, v[0], v[1]);
        else if (strcmp(op, "powmod") == 0) mpz_powm(r, v[0], v[1], v[2]);
        else if (strcmp(op, "divmod") == 0) {
            mpz_fdiv_qr(q, r, v[0], v[1]);
            put(q, hex);
            putchar(' ');
        } else if (strcmp(op, "cmp") == 0) {
            int c = mpz_cmp(v[0], v[1]);
            printf("%d\n", c < 0 ? -1 : c > 0);
            continue;
        }
        put(r, hex);
        putchar('\n');
    }
    free(line);
    for (int k = 0; k < 3; k++) mpz_clear(v[k]);
    mpz_clear(r);
    mpz_clear(q);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "gen") == 0 && known(argv[2]))
        return gen(argv[2], strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0),
                   strtoul(argv[5], NULL, 0));
    if (argc >= 3 && argc <= 4 && strcmp(argv[1], "eval") == 0 && known(argv[2]))
        return eval(argv[2], argc == 4 && strcmp(argv[3], "--hex") == 0);
    fprintf(stderr, "usage: int_oracle gen OP BITS COUNT SEED | int_oracle eval OP [--hex]\n");
    return 2;
}
