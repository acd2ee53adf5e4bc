/*
 * archfetch: fetches derived metrics from an archive as a PCP client
 * does. Arguments: archive, configuration file, mode ("interp" or
 * "forw"), interval in milliseconds (interp), number of fetches, then
 * metric names. For each fetch it prints the timestamp, then for each
 * name its number of values (or error) and each instance's value.
 */
#include <pcp/pmapi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
number(double d)
{
    if (isnan(d))
	printf("nan");
    else if (isinf(d))
	printf(d < 0 ? "-inf" : "inf");
    else
	printf("%.17g", d);
}

int
main(int argc, char **argv)
{
    pmHighResLogLabel	label;
    struct timespec	delta;
    int			i, j, k, sts, n, nfetch, ms;
    pmID		*pmids;
    pmDesc		*descs;
    pmHighResResult	*rp;

    if (argc < 7) {
	fprintf(stderr, "usage: archfetch archive config mode ms fetches name...\n");
	return 2;
    }
    if ((sts = pmLoadDerivedConfig(argv[2])) < 0) {
	fprintf(stderr, "pmLoadDerivedConfig: %s\n", pmErrStr(sts));
	return 1;
    }
    if ((sts = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0) {
	fprintf(stderr, "pmNewContext: %s\n", pmErrStr(sts));
	return 1;
    }
    if ((sts = pmGetHighResArchiveLabel(&label)) < 0) {
	fprintf(stderr, "pmGetHighResArchiveLabel: %s\n", pmErrStr(sts));
	return 1;
    }
    ms = atoi(argv[4]);
    nfetch = atoi(argv[5]);
    delta.tv_sec = ms / 1000;
    delta.tv_nsec = (ms % 1000) * 1000000;
    sts = pmSetModeHighRes(strcmp(argv[3], "interp") == 0 ? PM_MODE_INTERP : PM_MODE_FORW, &label.start, &delta);
    if (sts < 0) {
	fprintf(stderr, "pmSetModeHighRes: %s\n", pmErrStr(sts));
	return 1;
    }
    n = argc - 6;
    pmids = calloc(n, sizeof(pmID));
    descs = calloc(n, sizeof(pmDesc));
    for (i = 0; i < n; i++) {
	if ((sts = pmLookupName(1, (const char **)&argv[6+i], &pmids[i])) < 0) {
	    printf("%s: %s\n", argv[6+i], pmErrStr(sts));
	    pmids[i] = PM_ID_NULL;
	    continue;
	}
	if ((sts = pmLookupDesc(pmids[i], &descs[i])) < 0) {
	    printf("%s: %s\n", argv[6+i], pmErrStr(sts));
	    pmids[i] = PM_ID_NULL;
	}
    }
    /* fetch only the metrics that could be described */
    for (i = j = 0; i < n; i++) {
	if (pmids[i] != PM_ID_NULL)
	    j++;
    }
    if (j < n) {
	pmID	*ok = calloc(n, sizeof(pmID));
	pmDesc	*okd = calloc(n, sizeof(pmDesc));
	char	**okn = calloc(n, sizeof(char *));
	for (i = j = 0; i < n; i++) {
	    if (pmids[i] == PM_ID_NULL)
		continue;
	    ok[j] = pmids[i];
	    okd[j] = descs[i];
	    okn[j++] = argv[6+i];
	}
	for (i = 0; i < j; i++)
	    argv[6+i] = okn[i];
	pmids = ok;
	descs = okd;
	n = j;
    }
    if (n == 0)
	return 0;
    for (k = 0; k < nfetch; k++) {
	if ((sts = pmFetchHighRes(n, pmids, &rp)) < 0) {
	    printf("fetch %d: %s\n", k, pmErrStr(sts));
	    break;
	}
	printf("fetch %d %lld.%09ld\n", k, (long long)rp->timestamp.tv_sec, rp->timestamp.tv_nsec);
	for (i = 0; i < n; i++) {
	    pmValueSet	*vs = rp->vset[i];
	    if (pmids[i] == PM_ID_NULL)
		continue;
	    if (vs->numval < 0) {
		printf("  %s: %s\n", argv[6+i], pmErrStr(vs->numval));
		continue;
	    }
	    printf("  %s: %d\n", argv[6+i], vs->numval);
	    for (j = 0; j < vs->numval; j++) {
		pmAtomValue	a;
		printf("    [%d] ", vs->vlist[j].inst);
		if (descs[i].type == PM_TYPE_STRING) {
		    pmExtractValue(vs->valfmt, &vs->vlist[j], descs[i].type, &a, PM_TYPE_STRING);
		    printf("\"%s\"\n", a.cp);
		    free(a.cp);
		    continue;
		}
		if ((sts = pmExtractValue(vs->valfmt, &vs->vlist[j], descs[i].type, &a, PM_TYPE_DOUBLE)) < 0)
		    printf("%s", pmErrStr(sts));
		else
		    number(a.d);
		putchar('\n');
	    }
	}
	pmFreeHighResResult(rp);
    }
    return 0;
}
