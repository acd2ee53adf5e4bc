/*
 * archwalk: walks a PCP archive through libpcp and prints every result,
 * for comparison with pmapi's archive context.
 *
 * archwalk archive forw|back|interp delta-nsec count [metric ...]
 *
 * forw and interp start at the archive's start, back at its end; with no
 * metrics the records come from pmFetchArchive, else from pmFetch.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
show(pmHighResResult *r)
{
    int i, j, k;

    printf("T %lld.%09ld %d\n", (long long)r->timestamp.tv_sec, (long)r->timestamp.tv_nsec, r->numpmid);
    for (i = 0; i < r->numpmid; i++) {
	pmValueSet *vs = r->vset[i];
	printf("  %s %d", pmIDStr(vs->pmid), vs->numval);
	for (j = 0; j < vs->numval; j++) {
	    pmValue *v = &vs->vlist[j];
	    if (vs->valfmt == PM_VAL_INSITU)
		printf(" %d=%d", v->inst, v->value.lval);
	    else {
		printf(" %d=", v->inst);
		for (k = 0; k < (int)(v->value.pval->vlen - PM_VAL_HDR_SIZE); k++)
		    printf("%02x", (unsigned char)v->value.pval->vbuf[k]);
	    }
	}
	putchar('\n');
    }
}

int
main(int argc, char **argv)
{
    int mode, sts, n, i, count;
    long long delta;
    struct timespec origin, step;
    pmHighResLogLabel label;
    pmID *pmids = NULL;
    pmHighResResult *r;

    if (argc < 5) {
	fprintf(stderr, "usage: archwalk archive forw|back|interp delta-nsec count [metric ...]\n");
	return 2;
    }
    if ((sts = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0) {
	printf("ERR %d\n", sts);
	return 0;
    }
    mode = strcmp(argv[2], "forw") == 0 ? PM_MODE_FORW :
	   strcmp(argv[2], "back") == 0 ? PM_MODE_BACK : PM_MODE_INTERP;
    delta = atoll(argv[3]);
    count = atoi(argv[4]);
    n = argc - 5;
    if (n > 0) {
	pmids = calloc(n, sizeof(pmID));
	if ((sts = pmLookupName(n, (const char **)&argv[5], pmids)) < 0) {
	    printf("ERR %d\n", sts);
	    return 0;
	}
    }
    pmGetHighResArchiveLabel(&label);
    origin = label.start;
    if (mode == PM_MODE_BACK || delta < 0)
	pmGetHighResArchiveEnd(&origin);
    step.tv_sec = delta / 1000000000LL;
    step.tv_nsec = delta % 1000000000LL;
    if ((sts = pmSetModeHighRes(mode, &origin, &step)) < 0) {
	printf("ERR %d\n", sts);
	return 0;
    }
    for (i = 0; i < count; i++) {
	if (n == 0)
	    sts = pmFetchHighResArchive(&r);
	else
	    sts = pmFetchHighRes(n, pmids, &r);
	if (sts < 0) {
	    printf("ERR %d\n", sts);
	    break;
	}
	show(r);
	pmFreeHighResResult(r);
    }
    return 0;
}
