/*
 * archbench: times libpcp fetching derived metrics from an archive.
 * Arguments: archive, configuration file, interval in milliseconds,
 * fetches per pass, passes, then metric names. Each pass rewinds to the
 * archive's start in interpolated mode; it prints the mean nanoseconds
 * per pmFetch.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int
main(int argc, char **argv)
{
    pmHighResLogLabel	label;
    struct timespec	delta, a, b;
    int			i, k, p, sts, n, nfetch, passes, ms;
    pmID		*pmids;
    pmResult		*rp;
    double		total = 0;

    if (argc < 7) {
	fprintf(stderr, "usage: archbench archive config ms fetches passes name...\n");
	return 2;
    }
    if ((sts = pmLoadDerivedConfig(argv[2])) < 0 ||
	(sts = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0 ||
	(sts = pmGetHighResArchiveLabel(&label)) < 0) {
	fprintf(stderr, "setup: %s\n", pmErrStr(sts));
	return 1;
    }
    ms = atoi(argv[3]);
    nfetch = atoi(argv[4]);
    passes = atoi(argv[5]);
    delta.tv_sec = ms / 1000;
    delta.tv_nsec = (ms % 1000) * 1000000;
    n = argc - 6;
    pmids = calloc(n, sizeof(pmID));
    if ((sts = pmLookupName(n, (const char **)&argv[6], pmids)) < 0) {
	fprintf(stderr, "pmLookupName: %s\n", pmErrStr(sts));
	return 1;
    }
    for (p = 0; p < passes; p++) {
	if ((sts = pmSetModeHighRes(PM_MODE_INTERP, &label.start, &delta)) < 0) {
	    fprintf(stderr, "pmSetModeHighRes: %s\n", pmErrStr(sts));
	    return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (k = 0; k < nfetch; k++) {
	    if ((sts = pmFetch(n, pmids, &rp)) < 0) {
		fprintf(stderr, "pmFetch: %s\n", pmErrStr(sts));
		return 1;
	    }
	    pmFreeResult(rp);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	total += (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
    }
    printf("%.0f\n", total / ((double)passes * nfetch));
    (void)i;
    return 0;
}
