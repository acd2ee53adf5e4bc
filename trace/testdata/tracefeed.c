/*
 * tracefeed: calls libpcp_trace as a script on standard input says, one
 * call a line, and prints each call's status, so that tests can feed
 * agents and compare what libpcp_trace sends and returns with gopcp's
 * trace package.
 *
 *	state N		pmtracestate(N)
 *	begin TAG	pmtracebegin
 *	end TAG		pmtraceend
 *	abort TAG	pmtraceabort
 *	point TAG	pmtracepoint
 *	obs TAG V	pmtraceobs
 *	counter TAG V	pmtracecounter
 *	sleep MS	sleep MS milliseconds
 *	err N		print pmtraceerrstr(N)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pcp/trace.h>

int
main(void)
{
    char	line[1024], cmd[32], tag[600];
    double	v;
    int		n, sts;

    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof(line), stdin) != NULL) {
	tag[0] = '\0';
	v = 0;
	n = sscanf(line, "%31s %599s %lf", cmd, tag, &v);
	if (n < 1)
	    continue;
	if (strcmp(tag, "-") == 0)
	    tag[0] = '\0';
	if (strcmp(cmd, "state") == 0)
	    sts = pmtracestate(atoi(tag));
	else if (strcmp(cmd, "begin") == 0)
	    sts = pmtracebegin(tag);
	else if (strcmp(cmd, "end") == 0)
	    sts = pmtraceend(tag);
	else if (strcmp(cmd, "abort") == 0)
	    sts = pmtraceabort(tag);
	else if (strcmp(cmd, "point") == 0)
	    sts = pmtracepoint(tag);
	else if (strcmp(cmd, "obs") == 0)
	    sts = pmtraceobs(tag, v);
	else if (strcmp(cmd, "counter") == 0)
	    sts = pmtracecounter(tag, v);
	else if (strcmp(cmd, "sleep") == 0) {
	    struct timespec ts = { atoi(tag) / 1000, (atoi(tag) % 1000) * 1000000L };
	    nanosleep(&ts, NULL);
	    sts = 0;
	}
	else if (strcmp(cmd, "err") == 0) {
	    printf("%s\n", pmtraceerrstr(atoi(tag)));
	    continue;
	}
	else {
	    fprintf(stderr, "tracefeed: unknown command %s\n", cmd);
	    return 1;
	}
	printf("%s %d\n", cmd, sts);
    }
    return 0;
}
