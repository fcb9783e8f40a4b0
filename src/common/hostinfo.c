#include "common/hostinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of the first /proc/cpuinfo line starting with `key`, i.e. what follows its ':'
 * (copied into val, newline removed). 1 when found. */
static int cpuinfo_value(const char *key, char *val, size_t cap)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return 0;
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, strlen(key)) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ') c++;
                snprintf(val, cap, "%s", c);
                val[strcspn(val, "\n")] = 0;
                found = 1;
            }
            break;
        }
    fclose(f);
    return found;
}

int bulk_host_cpu_model(char *buf, size_t cap)
{
    return cpuinfo_value("model name", buf, cap);
}

double bulk_host_cpu_mhz(void)
{
    char v[64];
    return cpuinfo_value("cpu MHz", v, sizeof v) ? atof(v) : 0;
}
