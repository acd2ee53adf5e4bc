/*
 * Reference for pcp.NumberStr: each input line is the hex bits of a
 * double; the line is echoed with pmNumberStr's text in brackets.
 */
#include <pcp/pmapi.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(void)
{
    char line[128];
    char buf[8];

    while (fgets(line, sizeof(line), stdin) != NULL) {
	uint64_t b;
	double d;

	line[strcspn(line, "\n")] = '\0';
	b = strtoull(line, NULL, 16);
	memcpy(&d, &b, 8);
	pmNumberStr_r(d, buf, sizeof(buf));
	printf("%s -> [%s]\n", line, buf);
    }
    return 0;
}
