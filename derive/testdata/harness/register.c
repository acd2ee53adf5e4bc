/*
 * register: reads one derived metric expression per line from standard
 * input, registers each under a fresh name with pmRegisterDerivedMetric
 * and prints libpcp's verdict: "ok", or the error message it formats.
 * Each answer ends with a line holding only "%%".
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(void)
{
    char	line[8192];
    char	name[64];
    int		n = 0;

    while (fgets(line, sizeof(line), stdin) != NULL) {
	char	*errmsg = NULL;
	size_t	len = strlen(line);
	if (len > 0 && line[len-1] == '\n')
	    line[--len] = '\0';
	snprintf(name, sizeof(name), "gopcp.check.m%d", n++);
	if (pmRegisterDerivedMetric(name, line, &errmsg) < 0) {
	    fputs(errmsg, stdout);
	    free(errmsg);
	}
	else
	    puts("ok");
	puts("%%");
	/*
	 * libpcp leaves its scanner in matchinst mode after an error inside
	 * matchinst(); a well-formed matchinst() puts it back
	 */
	snprintf(name, sizeof(name), "gopcp.reset.m%d", n);
	if (pmRegisterDerivedMetric(name, "matchinst(/a/, b)", &errmsg) < 0)
	    free(errmsg);
    }
    return 0;
}
