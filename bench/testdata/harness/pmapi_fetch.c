/*
 * libpcp's side of the pmapi fetch benchmark: connects to the pmcd named
 * by argv[1], looks up the metrics named by the other arguments and times
 * pmFetch (with pmFreeResult, as a caller must) of all of them, every
 * instance, growing the count until one timed run lasts argv[2] seconds.
 * Prints "fetches N ns_per_fetch X values V cpu_ns_per_fetch C", C being
 * this process's user and system time.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>

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
    int		sts, i, n, values = 0;
    double	target, start, elapsed = 0, cpu0, cpuused = 0;
    pmID	pmids[64];
    pmResult	*r;

    if (argc < 4) {
	fprintf(stderr, "usage: %s host seconds metric...\n", argv[0]);
	return 1;
    }
    if ((sts = pmNewContext(PM_CONTEXT_HOST, argv[1])) < 0) {
	fprintf(stderr, "pmNewContext: %s\n", pmErrStr(sts));
	return 1;
    }
    target = atof(argv[2]);
    n = argc - 3;
    if ((sts = pmLookupName(n, (const char **)&argv[3], pmids)) < 0 || sts != n) {
	fprintf(stderr, "pmLookupName: %s\n", pmErrStr(sts));
	return 1;
    }
    /* warm up, and count the values */
    if ((sts = pmFetch(n, pmids, &r)) < 0) {
	fprintf(stderr, "pmFetch: %s\n", pmErrStr(sts));
	return 1;
    }
    for (i = 0; i < r->numpmid; i++)
	if (r->vset[i]->numval > 0)
	    values += r->vset[i]->numval;
    pmFreeResult(r);

    long count = 1;
    for (;;) {
	long k;
	start = now();
	cpu0 = cpu();
	for (k = 0; k < count; k++) {
	    if ((sts = pmFetch(n, pmids, &r)) < 0) {
		fprintf(stderr, "pmFetch: %s\n", pmErrStr(sts));
		return 1;
	    }
	    pmFreeResult(r);
	}
	elapsed = now() - start;
	cpuused = cpu() - cpu0;
	if (elapsed >= target || count >= 100000000)
	    break;
	count = elapsed > 0 ? (long)(count * 1.2 * target / elapsed) + 1 : count * 100;
    }
    printf("fetches %ld ns_per_fetch %.1f values %d cpu_ns_per_fetch %.1f\n", count, elapsed * 1e9 / count, values, cpuused * 1e9 / count);
    return 0;
}
