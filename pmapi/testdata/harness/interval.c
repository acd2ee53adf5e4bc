/*
 * pmParseHighResInterval harness: for each record on stdin (a 4-byte
 * big-endian length and that many bytes of specification), writes one
 * line: "ok SEC NSEC" or "err" followed by the error message's lines
 * with newlines written as "\n", then a line holding only ".".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <pcp/pmapi.h>

int
main(void)
{
    static char spec[65536];
    unsigned char b[4];

    while (fread(b, 1, 4, stdin) == 4) {
	uint32_t n = (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
	struct timespec ts;
	char *msg = NULL, *p;

	if (n >= sizeof(spec) || fread(spec, 1, n, stdin) != n)
	    return 1;
	spec[n] = '\0';
	if (pmParseHighResInterval(spec, &ts, &msg) >= 0)
	    printf("ok %lld %ld\n", (long long)ts.tv_sec, ts.tv_nsec);
	else {
	    printf("err ");
	    for (p = msg; p && *p; p++) {
		if (*p == '\n')
		    fputs("\\n", stdout);
		else
		    putchar(*p);
	    }
	    putchar('\n');
	    free(msg);
	}
	puts(".");
	fflush(stdout);
    }
    return 0;
}
