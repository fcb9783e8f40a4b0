/* Without the CUDA backend there is no GPU stepper (cuda/life_cuda.cu replaces this). */
#ifndef BULK_HAVE_CUDA
#include "life/life_internal.h"

int life_cuda_step(uint64_t *cells, uint64_t width, uint64_t height, int torus,
                   const bulk_life_rule *rule, uint64_t steps, unsigned per_pass, long long strip)
{
    (void)cells, (void)width, (void)height, (void)torus, (void)rule, (void)steps, (void)per_pass, (void)strip;
    return BULK_ERR_NO_BACKEND;
}

int life_cuda_step_timed(uint64_t *cells, uint64_t width, uint64_t height, int torus,
                         const bulk_life_rule *rule, uint64_t steps, unsigned per_pass,
                         long long strip, double *kernel_seconds)
{
    (void)kernel_seconds;
    return life_cuda_step(cells, width, height, torus, rule, steps, per_pass, strip);
}

int life_cuda_info(char *name, size_t cap, int *sms, int *clock_khz)
{
    (void)name, (void)cap, (void)sms, (void)clock_khz;
    return BULK_ERR_NO_BACKEND;
}
#endif
