/*
 * fetchbench: times libpcp fetching derived metrics. Arguments: host,
 * configuration file, iterations, then metric names. Loads the file with
 * pmLoadDerivedConfig, fetches the names once to warm up, then prints the
 * mean nanoseconds per pmFetch over the iterations.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int
main(int argc, char **argv)
{
    int			n, i, sts, ctx;
    pmID		*pmids;
    pmResult		*rp;
    struct timespec	a, b;

    if (argc < 5) {
	fprintf(stderr, "usage: fetchbench host config iterations name...\n");
	return 2;
    }
    if ((sts = pmLoadDerivedConfig(argv[2])) < 0) {
	fprintf(stderr, "pmLoadDerivedConfig: %s\n", pmErrStr(sts));
	return 1;
    }
    if ((ctx = pmNewContext(PM_CONTEXT_HOST, argv[1])) < 0) {
	fprintf(stderr, "pmNewContext: %s\n", pmErrStr(ctx));
	return 1;
    }
    n = atoi(argv[3]);
    pmids = malloc((argc - 4) * sizeof(pmID));
    if ((sts = pmLookupName(argc - 4, (const char **)&argv[4], pmids)) < 0) {
	fprintf(stderr, "pmLookupName: %s\n", pmErrStr(sts));
	return 1;
    }
    for (i = 0; i < 2; i++) {
	if ((sts = pmFetch(argc - 4, pmids, &rp)) < 0) {
	    fprintf(stderr, "pmFetch: %s\n", pmErrStr(sts));
	    return 1;
	}
	pmFreeResult(rp);
    }
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (i = 0; i < n; i++) {
	if ((sts = pmFetch(argc - 4, pmids, &rp)) < 0) {
	    fprintf(stderr, "pmFetch: %s\n", pmErrStr(sts));
	    return 1;
	}
	pmFreeResult(rp);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.0f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
    return 0;
}
