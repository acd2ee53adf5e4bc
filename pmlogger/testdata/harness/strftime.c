/*
 * strftime harness: for each record on stdin (a 4-byte big-endian length
 * and that many bytes of pattern), writes the C library's expansion of
 * the pattern at each time given on the command line (seconds since the
 * epoch, expanded in $TZ and the C locale), each as a 4-byte length and
 * the bytes; the length is 0xffffffff when strftime gives nothing for a
 * pattern that is not empty (the buffer was too small).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

static int
readfull(void *p, size_t n)
{
    return fread(p, 1, n, stdin) == n;
}

static void
put32(uint32_t v)
{
    unsigned char b[4] = { v >> 24, v >> 16, v >> 8, v };
    fwrite(b, 1, 4, stdout);
}

int
main(int argc, char **argv)
{
    static char pattern[65536], out[65536];
    unsigned char b[4];

    for (;;) {
	uint32_t n;
	int i;

	if (!readfull(b, 4))
	    return 0;
	n = (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
	if (n >= sizeof(pattern) || !readfull(pattern, n))
	    return 1;
	pattern[n] = '\0';
	for (i = 1; i < argc; i++) {
	    time_t t = (time_t)strtoll(argv[i], NULL, 10);
	    struct tm tm;
	    size_t len;

	    localtime_r(&t, &tm);
	    len = strftime(out, sizeof(out), pattern, &tm);
	    if (len == 0 && pattern[0] != '\0')
		put32(0xffffffff);
	    else {
		put32(len);
		fwrite(out, 1, len, stdout);
	    }
	}
	fflush(stdout);
    }
}
