/* glibc's strtoull and strtoll for each line of standard input, the line
 * being the base in decimal, a blank and the input's bytes in hex (so
 * that any byte can be sent): prints, tab-separated, strtoull's value in
 * decimal, its end offset and 1 when errno is ERANGE, then the same for
 * strtoll, and flushes, so that a fuzz target can ask it one input at a
 * time. An end pointer glibc leaves unset (a bad base) reads as 0. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexline.h"

int main(void)
{
    static char line[1 << 17], text[1 << 16];
    while (fgets(line, sizeof line, stdin) != NULL) {
	int base, off = 0;
	if (sscanf(line, "%d %n", &base, &off) != 1 || off == 0)
	    return 2;
	if (unhex(line + off, text, sizeof text) < 0)
	    return 2;
	char *uend = text, *send = text;
	errno = 0;
	unsigned long long u = strtoull(text, &uend, base);
	int uerange = errno == ERANGE;
	errno = 0;
	long long s = strtoll(text, &send, base);
	int serange = errno == ERANGE;
	printf("%llu\t%ld\t%d\t%lld\t%ld\t%d\n", u, (long)(uend - text), uerange,
	       s, (long)(send - text), serange);
	fflush(stdout);
    }
    return 0;
}
