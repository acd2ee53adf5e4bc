/*
 * trace_point MODE N: times N calls of pmtracepoint in libpcp_trace's
 * synchronous ("sync") or asynchronous ("async") protocol, against the
 * agent PCP_TRACE_HOST and PCP_TRACE_PORT name, and prints the wall
 * nanoseconds per call. The first call, which connects, is not timed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pcp/trace.h>

int
main(int argc, char **argv)
{
    struct timespec	a, b;
    long		i, n;
    int			sts;

    if (argc != 3) {
	fprintf(stderr, "usage: trace_point sync|async N\n");
	return 1;
    }
    n = atol(argv[2]);
    if (strcmp(argv[1], "async") == 0)
	pmtracestate(PMTRACE_STATE_ASYNC);
    if ((sts = pmtracepoint("bench")) < 0) {
	fprintf(stderr, "trace_point: %s\n", pmtraceerrstr(sts));
	return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (i = 0; i < n; i++) {
	if ((sts = pmtracepoint("bench")) < 0) {
	    fprintf(stderr, "trace_point: %s\n", pmtraceerrstr(sts));
	    return 1;
	}
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.2f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
    return 0;
}
