/*
 * add: opens a host context on argv[1], then reads "name<TAB>expr" lines
 * and adds each as a per-context derived metric with pmAddDerivedMetric.
 * It prints libpcp's verdict ("ok" and the metric's PMID and descriptor,
 * or the returned code and error message); each answer ends with "%%".
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
    char	line[8192];
    int		ctx;

    if (argc != 2) {
	fprintf(stderr, "usage: add host\n");
	return 2;
    }
    if ((ctx = pmNewContext(PM_CONTEXT_HOST, argv[1])) < 0) {
	fprintf(stderr, "pmNewContext: %s\n", pmErrStr(ctx));
	return 1;
    }
    while (fgets(line, sizeof(line), stdin) != NULL) {
	char	*errmsg = NULL;
	char	*expr;
	char	*name = line;
	size_t	len = strlen(line);
	int	sts;
	if (len > 0 && line[len-1] == '\n')
	    line[--len] = '\0';
	if ((expr = strchr(line, '\t')) == NULL)
	    continue;
	*expr++ = '\0';
	if ((sts = pmAddDerivedMetric(name, expr, &errmsg)) < 0) {
	    printf("returns %d\n", sts);
	    fputs(errmsg, stdout);
	    free(errmsg);
	}
	else {
	    pmID	pmid;
	    pmDesc	desc;
	    char	units[64];
	    if ((sts = pmLookupName(1, (const char **)&name, &pmid)) < 0)
		printf("ok, pmLookupName: %s\n", pmErrStr(sts));
	    else if ((sts = pmLookupDesc(pmid, &desc)) < 0)
		printf("ok %s, pmLookupDesc: %s\n", pmIDStr(pmid), pmErrStr(sts));
	    else
		printf("ok %s type %d indom %s sem %d units %s\n", pmIDStr(pmid),
		    desc.type, pmInDomStr(desc.indom), desc.sem,
		    pmUnitsStr_r(&desc.units, units, sizeof(units)));
	}
	puts("%%");
    }
    return 0;
}
