/*
 * A libpcp client for the tests of the state changes pmcd reports with a
 * fetch: it connects to the pmcd at the host argument, looks up the
 * metrics named after it and, for each line "fetch" on stdin, fetches
 * them and prints what pmFetch returned (the PMCD_* bits when positive)
 * and the first metric's value count, or the error. With -v first it
 * also prints the names and labels bits apart and the first value.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <string.h>

int
main(int argc, char **argv)
{
    char	line[64];
    pmID	pmids[8];
    int		verbose = 0;
    int		n;
    pmResult	*rp;
    int		sts;

    if (argc > 1 && strcmp(argv[1], "-v") == 0) {
	verbose = 1;
	argc--;
	argv++;
    }
    if (argc < 3 || argc > 10) {
	fprintf(stderr, "usage: %s [-v] host metric...\n", argv[0]);
	return 2;
    }
    n = argc - 2;
    if ((sts = pmNewContext(PM_CONTEXT_HOST, argv[1])) < 0) {
	printf("context: %s\n", pmErrStr(sts));
	return 1;
    }
    if ((sts = pmLookupName(n, (const char **)&argv[2], pmids)) < 0) {
	printf("lookup: %s\n", pmErrStr(sts));
	return 1;
    }
    printf("ready\n");
    fflush(stdout);
    while (fgets(line, sizeof(line), stdin) != NULL) {
	if (strncmp(line, "fetch", 5) != 0) {
	    printf("unknown command\n");
	} else if ((sts = pmFetch(n, pmids, &rp)) < 0) {
	    printf("fetch: %s\n", pmErrStr(sts));
	} else if (!verbose) {
	    printf("fetch %d numval %d\n", sts, rp->vset[0]->numval);
	    pmFreeResult(rp);
	} else {
	    printf("fetch %d names %d labels %d numval %d", sts,
		    (sts & PMCD_NAMES_CHANGE) != 0, (sts & PMCD_LABEL_CHANGE) != 0,
		    rp->vset[0]->numval);
	    if (rp->vset[0]->numval > 0)
		printf(" value %d", rp->vset[0]->vlist[0].value.lval);
	    printf("\n");
	    pmFreeResult(rp);
	}
	fflush(stdout);
    }
    return 0;
}
