/*
 * Reference for the identifier and enumeration strings: each input line is
 * "pmid X", "indom X", "type N" or "sem N" (X in any base strtoul takes)
 * and is echoed, a TAB, and libpcp's pmIDStr, pmInDomStr, pmTypeStr or
 * pmSemStr of it.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(void)
{
    char	line[256];
    char	kind[16];
    char	num[64];
    char	buf[64];

    while (fgets(line, sizeof(line), stdin) != NULL) {
	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "%15s %63s", kind, num) != 2) {
	    fprintf(stderr, "bad input line: %s\n", line);
	    return 1;
	}
	if (strcmp(kind, "pmid") == 0)
	    pmIDStr_r((pmID)strtoul(num, NULL, 0), buf, sizeof(buf));
	else if (strcmp(kind, "indom") == 0)
	    pmInDomStr_r((pmInDom)strtoul(num, NULL, 0), buf, sizeof(buf));
	else if (strcmp(kind, "type") == 0)
	    pmTypeStr_r((int)strtol(num, NULL, 0), buf, sizeof(buf));
	else if (strcmp(kind, "sem") == 0)
	    pmSemStr_r((int)strtol(num, NULL, 0), buf, sizeof(buf));
	else {
	    fprintf(stderr, "bad kind: %s\n", kind);
	    return 1;
	}
	printf("%s\t%s\n", line, buf);
    }
    return 0;
}
