/* glibc's strtod for each line of standard input, the line being the
 * input's bytes in hex (so that any byte can be sent): prints the
 * double's bits in hex, the end offset and 1 when errno is ERANGE,
 * tab-separated, and flushes, so that a fuzz target can ask it one
 * input at a time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
	return c - '0';
    if (c >= 'a' && c <= 'f')
	return c - 'a' + 10;
    return -1;
}

int main(void)
{
    static char line[1 << 17], text[1 << 16];
    while (fgets(line, sizeof line, stdin) != NULL) {
	size_t n = strcspn(line, "\n"), k = 0;
	for (size_t i = 0; i + 1 < n && k < sizeof text - 1; i += 2) {
	    int hi = hexval(line[i]), lo = hexval(line[i + 1]);
	    if (hi < 0 || lo < 0)
		return 2;
	    text[k++] = (char)(hi * 16 + lo);
	}
	text[k] = '\0';
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
