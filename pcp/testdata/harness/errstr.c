/*
 * Reference for pcp.ErrorText: reads one decimal error code per line and
 * prints "code<TAB>pmErrStr(code)" for each.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(void)
{
    char	line[256];
    char	buf[PM_MAXERRMSGLEN];

    while (fgets(line, sizeof(line), stdin) != NULL) {
	int code = (int)strtol(line, NULL, 10);
	printf("%d\t%s\n", code, pmErrStr_r(code, buf, sizeof(buf)));
    }
    return 0;
}
