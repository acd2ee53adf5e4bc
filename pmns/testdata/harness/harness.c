/*
 * harness asks libpcp what it makes of a PMNS file, so the Go tests can
 * compare gopcp's answers with real PCP's.  Usage:
 *
 *   harness [-c] [-N] [-a] FILE CMD [ARG...]
 *
 * -c loads with pmLoadNameSpace (no pmcpp), otherwise pmLoadASCIINameSpace;
 * -N refuses duplicate PMIDs; -a builds the PMNS instead, as libpcp does for
 * an archive, from FILE's lines of "NAME D.C.I" (or "NAME D.*.*" for a
 * dynamic root), and reports any name libpcp refuses.  CMD is one of:
 *
 *   load              only load; prints "ok"
 *   all               dump, names and children, each after a "== CMD" line
 *   dump              every name from the root with its PMID
 *   names             every PMID with pmNameID and then pmNameAll's list
 *   children [NAME]   pmGetChildrenStatus for NAME, or for every non-leaf
 *   traverse NAME...  pmTraversePMNS from each NAME
 *   lookup NAME...    pmLookupName for each NAME on its own
 *   nameid PMID...    pmNameID and pmNameAll for PMIDs given as D.C.I
 *
 * A failed load prints "load: CODE" on stdout; libpcp's own diagnostics go
 * to stderr.  Errors from a call print "NAME error CODE".
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpcp's internal interface for building a PMNS, as archives use it */
typedef struct __pmnsTree __pmnsTree;
extern int __pmNewPMNS(__pmnsTree **);
extern int __pmAddPMNSNode(__pmnsTree *, int, const char *);
extern int __pmFixPMNSHashTab(__pmnsTree *, int, int);
extern void __pmUsePMNS(__pmnsTree *);

static int
build(const char *file)
{
    __pmnsTree *tree;
    FILE *f = fopen(file, "r");
    char name[1024], id[64];
    int n = 0, sts;

    if (f == NULL)
	return -1;
    if ((sts = __pmNewPMNS(&tree)) < 0)
	return sts;
    while (fscanf(f, "%1023s %63s", name, id) == 2) {
	unsigned int d, c, i;
	pmID pmid;
	if (sscanf(id, "%u.%u.%u", &d, &c, &i) == 3)
	    pmid = pmID_build(d, c, i);
	else if (sscanf(id, "%u.*.*", &d) == 1)
	    pmid = pmID_build(DYNAMIC_PMID, d, 0);
	else
	    return -1;
	if ((sts = __pmAddPMNSNode(tree, pmid, name)) < 0)
	    printf("add %s error %d\n", name, sts);
	n++;
    }
    fclose(f);
    if ((sts = __pmFixPMNSHashTab(tree, n, 1)) < 0)
	return sts;
    __pmUsePMNS(tree);
    return 0;
}

static char **all;
static int nall, szall;

/*
 * libpcp always knows a few derived metrics (event.flags, event.missed)
 * and stitches them into its answers; they are not part of any PMNS file,
 * so the answers drop them.  real[] holds the non-derived names.
 */
static char **real;
static int nreal;

static int
is_real_prefix(const char *name)
{
    size_t len = strlen(name);
    int i;

    for (i = 0; i < nreal; i++) {
	if (strncmp(real[i], name, len) == 0 &&
	    (real[i][len] == '\0' || real[i][len] == '.'))
	    return 1;
    }
    return 0;
}

static void
collect(const char *name, void *closure)
{
    (void)closure;
    if (nall == szall) {
	szall = szall ? 2 * szall : 1024;
	all = realloc(all, szall * sizeof(all[0]));
	if (all == NULL)
	    exit(2);
    }
    all[nall++] = strdup(name);
}

static pmID
lookup(const char *name, int *sts)
{
    pmID pmid = PM_ID_NULL;
    *sts = pmLookupName(1, &name, &pmid);
    return pmid;
}

static void
print_children(const char *name, int recurse)
{
    char **kids = NULL;
    int *status = NULL;
    int n = pmGetChildrenStatus(name, &kids, &status);
    int i, nkeep = 0;

    if (n < 0) {
	printf("%s error %d\n", name, n);
	return;
    }
    /* keep the children with a non-derived metric below them */
    for (i = 0; i < n; i++) {
	char buf[1024];
	if (*name == '\0')
	    snprintf(buf, sizeof(buf), "%s", kids[i]);
	else
	    snprintf(buf, sizeof(buf), "%s.%s", name, kids[i]);
	if (is_real_prefix(buf)) {
	    kids[nkeep] = kids[i];
	    status[nkeep++] = status[i];
	}
    }
    if (nkeep == 0) {
	if (!recurse)
	    printf("%s leaf\n", name);
	free(kids);
	free(status);
	return;
    }
    printf("%s", name);
    for (i = 0; i < nkeep; i++)
	printf(" %s:%d", kids[i], status[i]);
    printf("\n");
    if (recurse) {
	for (i = 0; i < nkeep; i++) {
	    char buf[1024];
	    if (status[i] == PMNS_LEAF_STATUS)
		continue;
	    if (*name == '\0')
		snprintf(buf, sizeof(buf), "%s", kids[i]);
	    else
		snprintf(buf, sizeof(buf), "%s.%s", name, kids[i]);
	    print_children(buf, 1);
	}
    }
    free(kids);
    free(status);
}

static void
print_names(pmID pmid)
{
    char buf[20];
    char *one = NULL;
    char **names = NULL;
    int sts, i;

    printf("%s", pmIDStr_r(pmid, buf, sizeof(buf)));
    if ((sts = pmNameID(pmid, &one)) < 0)
	printf(" error %d", sts);
    else {
	printf(" %s", one);
	free(one);
    }
    if ((sts = pmNameAll(pmid, &names)) < 0)
	printf(" | error %d", sts);
    else {
	printf(" |");
	for (i = 0; i < sts; i++)
	    printf(" %s", names[i]);
	free(names);
    }
    printf("\n");
}

static void
dump(void)
{
    char buf[20];
    int i, sts;

    for (i = 0; i < nreal; i++) {
	pmID pmid = lookup(real[i], &sts);
	if (sts < 0)
	    printf("%s error %d\n", real[i], sts);
	else
	    printf("%s %s\n", real[i], pmIDStr_r(pmid, buf, sizeof(buf)));
    }
}

static void
names(void)
{
    pmID *seen = calloc(nreal + 1, sizeof(seen[0]));
    int nseen = 0, i, j, sts;

    for (i = 0; i < nreal; i++) {
	pmID pmid = lookup(real[i], &sts);
	if (sts < 0 || pmid == PM_ID_NULL)
	    continue;
	for (j = 0; j < nseen; j++)
	    if (seen[j] == pmid)
		break;
	if (j < nseen)
	    continue;
	seen[nseen++] = pmid;
	print_names(pmid);
    }
    free(seen);
}

int
main(int argc, char **argv)
{
    int nocpp = 0, dupok = 1, add = 0, sts, i, j;
    const char *file, *cmd;
    char buf[20];

    while (argc > 1 && argv[1][0] == '-') {
	if (strcmp(argv[1], "-c") == 0)
	    nocpp = 1;
	else if (strcmp(argv[1], "-N") == 0)
	    dupok = 0;
	else if (strcmp(argv[1], "-a") == 0)
	    add = 1;
	else
	    break;
	argc--;
	argv++;
    }
    if (argc < 3) {
	fprintf(stderr, "usage: harness [-c] [-N] [-a] FILE CMD [ARG...]\n");
	return 2;
    }
    file = argv[1];
    cmd = argv[2];
    /* no derived metrics from the user's or the system's configuration */
    setenv("PCP_DERIVED_CONFIG", "", 1);
    if (add)
	sts = build(file);
    else if (nocpp)
	sts = pmLoadNameSpace(file);
    else
	sts = pmLoadASCIINameSpace(file, dupok);
    if (sts < 0) {
	fflush(stderr);
	printf("load: %d\n", sts);
	return 0;
    }

    /* every name, then the non-derived ones */
    if ((sts = pmTraversePMNS_r("", collect, NULL)) < 0 && sts != PM_ERR_NAME)
	printf("traverse error %d\n", sts);
    real = calloc(nall + 1, sizeof(real[0]));
    for (i = 0; i < nall; i++) {
	pmID pmid = lookup(all[i], &sts);
	if (sts >= 0 && IS_DERIVED(pmid))
	    continue;
	real[nreal++] = all[i];
    }
    nall = 0;

    if (strcmp(cmd, "load") == 0) {
	printf("ok\n");
    }
    else if (strcmp(cmd, "dump") == 0) {
	dump();
    }
    else if (strcmp(cmd, "names") == 0) {
	names();
    }
    else if (strcmp(cmd, "all") == 0) {
	printf("== dump\n");
	dump();
	printf("== names\n");
	names();
	printf("== children\n");
	print_children("", 1);
    }
    else if (strcmp(cmd, "children") == 0) {
	if (argc > 3) {
	    for (i = 3; i < argc; i++)
		print_children(argv[i], 0);
	}
	else
	    print_children("", 1);
    }
    else if (strcmp(cmd, "traverse") == 0) {
	for (i = 3; i < argc; i++) {
	    nall = 0;
	    int nout = 0;
	    sts = pmTraversePMNS_r(argv[i], collect, NULL);
	    for (j = 0; j < nall; j++) {
		if (is_real_prefix(all[j]))
		    all[nout++] = all[j];
	    }
	    printf("%s %d\n", argv[i], sts < 0 ? sts : nout);
	    for (j = 0; j < nout; j++)
		printf("  %s\n", all[j]);
	}
    }
    else if (strcmp(cmd, "lookup") == 0) {
	for (i = 3; i < argc; i++) {
	    pmID pmid = lookup(argv[i], &sts);
	    if (sts < 0)
		printf("%s error %d\n", argv[i], sts);
	    else
		printf("%s %s\n", argv[i], pmIDStr_r(pmid, buf, sizeof(buf)));
	}
    }
    else if (strcmp(cmd, "nameid") == 0) {
	for (i = 3; i < argc; i++) {
	    unsigned int d, c, it;
	    if (sscanf(argv[i], "%u.%u.%u", &d, &c, &it) != 3) {
		fprintf(stderr, "bad PMID %s\n", argv[i]);
		return 2;
	    }
	    print_names(pmID_build(d, c, it));
	}
    }
    else {
	fprintf(stderr, "unknown command %s\n", cmd);
	return 2;
    }
    return 0;
}
