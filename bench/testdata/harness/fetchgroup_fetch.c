/*
 * libpcp's side of the fetchgroup benchmark: a fetchgroup on the pmcd
 * named by argv[1] holding every instance of each metric named by the
 * other arguments as doubles (counters as rates), timed through
 * pmFetchGroup, growing the count until one timed run lasts argv[2]
 * seconds. Prints "fetches N ns_per_fetch X values V cpu_ns_per_fetch C",
 * V being the values filled by the last fetch and C this process's user
 * and system time.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>

#define MAXINST 64

static double
cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
    pmFG	fg;
    int		sts, i, j, n, values = 0;
    double	target, start, elapsed = 0, cpu0, cpuused = 0;
    static pmAtomValue	vals[64][MAXINST];
    static int		stss[64][MAXINST];
    static unsigned	num[64];

    if (argc < 4 || argc - 3 > 64) {
	fprintf(stderr, "usage: %s host seconds metric...\n", argv[0]);
	return 1;
    }
    if ((sts = pmCreateFetchGroup(&fg, PM_CONTEXT_HOST, argv[1])) < 0) {
	fprintf(stderr, "pmCreateFetchGroup: %s\n", pmErrStr(sts));
	return 1;
    }
    target = atof(argv[2]);
    n = argc - 3;
    for (i = 0; i < n; i++) {
	sts = pmExtendFetchGroup_indom(fg, argv[3 + i], NULL, NULL, NULL, vals[i],
			PM_TYPE_DOUBLE, stss[i], MAXINST, &num[i], NULL);
	if (sts < 0) {
	    fprintf(stderr, "pmExtendFetchGroup_indom %s: %s\n", argv[3 + i], pmErrStr(sts));
	    return 1;
	}
    }
    /* warm up: two fetches, so that rates have a previous value */
    pmFetchGroup(fg);
    if ((sts = pmFetchGroup(fg)) < 0) {
	fprintf(stderr, "pmFetchGroup: %s\n", pmErrStr(sts));
	return 1;
    }
    for (i = 0; i < n; i++)
	for (j = 0; j < (int)num[i]; j++)
	    if (stss[i][j] == 0)
		values++;

    long count = 1;
    for (;;) {
	long k;
	start = now();
	cpu0 = cpu();
	for (k = 0; k < count; k++) {
	    if ((sts = pmFetchGroup(fg)) < 0) {
		fprintf(stderr, "pmFetchGroup: %s\n", pmErrStr(sts));
		return 1;
	    }
	}
	elapsed = now() - start;
	cpuused = cpu() - cpu0;
	if (elapsed >= target || count >= 100000000)
	    break;
	count = elapsed > 0 ? (long)(count * 1.2 * target / elapsed) + 1 : count * 100;
    }
    printf("fetches %ld ns_per_fetch %g values %d cpu_ns_per_fetch %g\n",
	   count, elapsed * 1e9 / count, values, cpuused * 1e9 / count);
    pmDestroyFetchGroup(fg);
    return 0;
}
