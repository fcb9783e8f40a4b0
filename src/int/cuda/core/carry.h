/* Carry-flag primitives of the per-instance steps: one PTX instruction each on the device, the
 * flag emulated in *f on the host (see int_gpu_core.h). */
#ifndef BULK_INT_CUDA_CORE_CARRY_H
#define BULK_INT_CUDA_CORE_CARRY_H

#include <stddef.h>
#include <stdint.h>

#include "common/hd.h"

#if defined(__CUDA_ARCH__) /* the device pass only: the host compiler warns on the pragma */
#define BG_UNROLL _Pragma("unroll")
#define BG_NOUNROLL _Pragma("unroll 1")
#else
#define BG_UNROLL
#define BG_NOUNROLL
#endif

#if defined(__CUDA_ARCH__)
#define BG_DEVICE 1
#else
#define BG_DEVICE 0
#endif

typedef uint32_t bg_word;

#define BG_AT(p, s, j) ((p)[(size_t)(j) * (s)])

/* The emulated carry flag (host); unused on the device, where the flag is in hardware. */
typedef struct bg_cc {
    uint32_t c;
} bg_cc;

/* ---- carry-flag primitives ------------------------------------------------------------- */

/* lo(a*b) + c, sets the flag. */
BULK_HD bg_word bg_mad_lo_cc(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t t = (uint64_t)(bg_word)(a * b) + c;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* lo(a*b) + c + flag, sets the flag. */
BULK_HD bg_word bg_madc_lo_cc(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t t = (uint64_t)(bg_word)(a * b) + c + f->c;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* lo(a*b) + c + flag; the flag is not written (the top word of a truncated chain). */
BULK_HD bg_word bg_madc_lo(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("madc.lo.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    return (bg_word)(a * b) + c + f->c;
#endif
}

/* hi(a*b) + c, sets the flag. */
BULK_HD bg_word bg_mad_hi_cc(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t t = (((uint64_t)a * b) >> 32) + c;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* hi(a*b) + c + flag, sets the flag. */
BULK_HD bg_word bg_madc_hi_cc(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t t = (((uint64_t)a * b) >> 32) + c + f->c;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* hi(a*b) + c + flag; the caller guarantees no carry out; the flag is not written. */
BULK_HD bg_word bg_madc_hi(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t t = (((uint64_t)a * b) >> 32) + c + f->c;
    return (bg_word)t; /* like the hardware: the flag is left as it was */
#endif
}

/* a + b + flag; does not set the flag. */
BULK_HD bg_word bg_addc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    return a + b + f->c; /* like the hardware: the flag is left as it was */
#endif
}

/* a - b, sets the flag to the borrow (PTX sub.cc). */
BULK_HD bg_word bg_sub_cc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    f->c = a < b;
    return a - b;
#endif
}

/* a - b - flag, sets the flag to the borrow (PTX subc.cc). */
BULK_HD bg_word bg_subc_cc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    uint64_t t = (uint64_t)a - b - f->c;
    f->c = (uint32_t)(t >> 63);
    return (bg_word)t;
#endif
}

/* a - b - flag; does not set the flag (PTX subc). */
BULK_HD bg_word bg_subc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    return a - b - f->c;
#endif
}

/* a * b + c as a 64-bit number (PTX mad.wide.u32: one IMAD.WIDE.U32 on sm_90). */
BULK_HD uint64_t bg_mad_wide(bg_word a, bg_word b, uint64_t c)
{
#if BG_DEVICE
    uint64_t d;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(d) : "r"(a), "r"(b), "l"(c));
    return d;
#else
    return (uint64_t)a * b + c;
#endif
}

/* a + b, sets the flag (PTX add.cc). */
BULK_HD bg_word bg_add_cc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    uint64_t t = (uint64_t)a + b;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* a + b + flag, sets the flag. */
BULK_HD bg_word bg_addc_cc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    uint64_t t = (uint64_t)a + b + f->c;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

#endif
