/*
 * Reference for pcp.Units.String: each input line holds six integers,
 * dimSpace dimTime dimCount scaleSpace scaleTime scaleCount, stored into
 * pmUnits' 4-bit fields; the line is echoed, a TAB, and pmUnitsStr of it.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <string.h>

int
main(void)
{
    char	line[256];
    char	buf[64];
    int		ds, dt, dc, ss, st, sc;

    while (fgets(line, sizeof(line), stdin) != NULL) {
	pmUnits	u;

	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "%d %d %d %d %d %d", &ds, &dt, &dc, &ss, &st, &sc) != 6) {
	    fprintf(stderr, "bad input line: %s\n", line);
	    return 1;
	}
	memset(&u, 0, sizeof(u));
	u.dimSpace = ds;
	u.dimTime = dt;
	u.dimCount = dc;
	u.scaleSpace = ss;
	u.scaleTime = st;
	u.scaleCount = sc;
	printf("%s\t%s\n", line, pmUnitsStr_r(&u, buf, sizeof(buf)));
    }
    return 0;
}
