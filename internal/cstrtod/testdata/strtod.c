/* glibc's strtod for each line of standard input, the line being the
 * input's bytes in hex (so that any byte can be sent): prints the
 * double's bits in hex, the end offset and 1 when errno is ERANGE,
 * tab-separated, and flushes, so that a fuzz target can ask it one
 * input at a time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexline.h"

int main(void)
{
    static char line[1 << 17], text[1 << 16];
    while (fgets(line, sizeof line, stdin) != NULL) {
	if (unhex(line, text, sizeof text) < 0)
	    return 2;
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	int erange = errno == ERANGE;
	unsigned long long bits;
	memcpy(&bits, &v, sizeof bits);
	printf("%016llx\t%ld\t%d\n", bits, (long)(end - text), erange);
	fflush(stdout);
    }
    return 0;
}
