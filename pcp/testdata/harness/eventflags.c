/*
 * Reference for pcp.EventFlagsStr: each input line is flags in hex; the
 * line is echoed with pmEventFlagsStr's text in brackets.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(void)
{
    char line[64];
    char buf[64];

    while (fgets(line, sizeof(line), stdin) != NULL) {
	line[strcspn(line, "\n")] = '\0';
	pmEventFlagsStr_r((int)strtoul(line, NULL, 16), buf, sizeof(buf));
	printf("%s -> [%s]\n", line, buf);
    }
    return 0;
}
