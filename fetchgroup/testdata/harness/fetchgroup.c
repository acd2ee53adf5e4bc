/*
 * Runs a fetchgroup script through libpcp's pmfetchgroup(3) and prints
 * every output after every fetch, in the format fetchgroup's tests print
 * gopcp's answers in.  Usage: fetchgroup host|local|archive NAME < script
 *
 * Script lines ("-" stands for a NULL string):
 *   item METRIC INSTANCE SCALE TYPE
 *   indom METRIC SCALE TYPE MAX
 *   event METRIC INSTANCE FIELD SCALE TYPE MAX
 *   ts
 *   fetch
 *   clear
 *   store METRIC VALUE       (through PCP's pmstore, on the same host)
 *   sleep SECONDS
 *   mode interp|forw|back [SECONDS] (archives: pmSetMode from the archive's
 *                            start, or its end for back, with that step)
 */
#include <pcp/pmapi.h>

/* exported by libpcp but not declared in pmapi.h */
extern int pmClearFetchGroup(pmFG);
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum kind { K_ITEM, K_INDOM, K_EVENT, K_TS };

struct handle {
    enum kind kind;
    int type;
    unsigned max;
    pmAtomValue value, *values;
    int sts, *stss, *codes;
    char **names;
    unsigned num;
    struct timespec *times;
    struct timeval tv;
};

static struct handle h[16384];
static int nh;
static int archive;	/* archive times are reproducible, so printed ... */
static int fetched;	/* ... when the fetch succeeded (else it is the clock's) */

static const char *
arg(const char *s)
{
    return strcmp(s, "-") == 0 ? NULL : s;
}

static int
typeof_name(const char *s)
{
    static const char *names[] = { "32", "u32", "64", "u64", "float", "double", "string" };
    int i;

    for (i = 0; i < 7; i++)
	if (strcmp(s, names[i]) == 0)
	    return i;
    return atoi(s);
}

static void
print_value(const pmAtomValue *v, int type)
{
    switch (type) {
    case PM_TYPE_32: printf("%d", v->l); break;
    case PM_TYPE_U32: printf("%u", v->ul); break;
    case PM_TYPE_64: printf("%lld", (long long)v->ll); break;
    case PM_TYPE_U64: printf("%llu", (unsigned long long)v->ull); break;
    case PM_TYPE_FLOAT:
	if (isnan(v->f)) printf("nan"); else printf("%.9g", v->f);
	break;
    case PM_TYPE_DOUBLE:
	if (isnan(v->d)) printf("nan"); else printf("%.17g", v->d);
	break;
    case PM_TYPE_STRING:
	if (v->cp == NULL) printf("(null)"); else printf("\"%s\"", v->cp);
	break;
    }
}

static void
report(void)
{
    int i;
    unsigned j;

    for (i = 0; i < nh; i++) {
	struct handle *p = &h[i];
	switch (p->kind) {
	case K_ITEM:
	    printf("h%d item %d ", i, p->sts);
	    print_value(&p->value, p->type);
	    putchar('\n');
	    break;
	case K_INDOM:
	    printf("h%d indom %d %u\n", i, p->sts, p->num);
	    for (j = 0; j < p->num; j++) {
		printf("  %d %s %d ", p->codes[j], p->names[j] ? p->names[j] : "(null)", p->stss[j]);
		print_value(&p->values[j], p->type);
		putchar('\n');
	    }
	    break;
	case K_EVENT:
	    printf("h%d event %d %u\n", i, p->sts, p->num);
	    for (j = 0; j < p->num; j++) {
		printf("  %s %d ", p->times[j].tv_sec || p->times[j].tv_nsec ? "time" : "notime", p->stss[j]);
		print_value(&p->values[j], p->type);
		putchar('\n');
	    }
	    break;
	case K_TS:
	    if (archive && fetched && p->tv.tv_sec)
		printf("h%d ts set %ld.%06ld\n", i, (long)p->tv.tv_sec, (long)p->tv.tv_usec);
	    else
		printf("h%d ts %s\n", i, p->tv.tv_sec ? "set" : "zero");
	    break;
	}
    }
}

int
main(int argc, char **argv)
{
    pmFG fg;
    char line[1024], a[6][256];
    int sts, kind = PM_CONTEXT_HOST;

    if (argc != 3) {
	fprintf(stderr, "usage: %s host|local|archive NAME\n", argv[0]);
	return 2;
    }
    if (strcmp(argv[1], "local") == 0)
	kind = PM_CONTEXT_LOCAL;
    else if (strcmp(argv[1], "archive") == 0)
	kind = PM_CONTEXT_ARCHIVE;
    archive = kind == PM_CONTEXT_ARCHIVE;
    sts = pmCreateFetchGroup(&fg, kind, kind == PM_CONTEXT_LOCAL ? NULL : argv[2]);
    printf("create %d\n", sts);
    if (sts < 0)
	return 0;
    while (fgets(line, sizeof(line), stdin) != NULL) {
	struct handle *p = &h[nh];
	int n = sscanf(line, "%255s %255s %255s %255s %255s %255s", a[0], a[1], a[2], a[3], a[4], a[5]);
	char cmd[32];

	if (n < 1 || sscanf(line, "%31s", cmd) != 1)
	    continue;
	if (nh >= (int)(sizeof(h) / sizeof(h[0]))) {
	    fprintf(stderr, "too many handles\n");
	    return 2;
	}
	memset(p, 0, sizeof(*p));
	if (strcmp(cmd, "item") == 0) {
	    sscanf(line, "%*s %255s %255s %255s %255s", a[0], a[1], a[2], a[3]);
	    p->kind = K_ITEM;
	    p->type = typeof_name(a[3]);
	    /*
	     * libpcp never resets an item's status (its reset writes through
	     * the instance-domain member of its union), so a discrete metric
	     * absent from the first fetches leaves the caller's initial
	     * status and value: start from "no value yet", as gopcp does.
	     */
	    p->sts = PM_ERR_VALUE;
	    if (p->type == PM_TYPE_FLOAT)
		p->value.f = NAN;
	    else if (p->type == PM_TYPE_DOUBLE)
		p->value.d = NAN;
	    else if (p->type != PM_TYPE_STRING)
		memset(&p->value, 0xff, sizeof(p->value));
	    sts = pmExtendFetchGroup_item(fg, a[0], arg(a[1]), arg(a[2]), &p->value, p->type, &p->sts);
	} else if (strcmp(cmd, "indom") == 0) {
	    sscanf(line, "%*s %255s %255s %255s %255s", a[0], a[1], a[2], a[3]);
	    p->kind = K_INDOM;
	    p->type = typeof_name(a[2]);
	    p->max = atoi(a[3]);
	    p->values = calloc(p->max + 1, sizeof(pmAtomValue));
	    p->stss = calloc(p->max + 1, sizeof(int));
	    p->codes = calloc(p->max + 1, sizeof(int));
	    p->names = calloc(p->max + 1, sizeof(char *));
	    sts = pmExtendFetchGroup_indom(fg, a[0], arg(a[1]), p->codes, p->names, p->values, p->type, p->stss, p->max, &p->num, &p->sts);
	} else if (strcmp(cmd, "event") == 0) {
	    char f[6][256];
	    sscanf(line, "%*s %255s %255s %255s %255s %255s %255s", f[0], f[1], f[2], f[3], f[4], f[5]);
	    p->kind = K_EVENT;
	    p->type = typeof_name(f[4]);
	    p->max = atoi(f[5]);
	    p->values = calloc(p->max + 1, sizeof(pmAtomValue));
	    p->stss = calloc(p->max + 1, sizeof(int));
	    p->times = calloc(p->max + 1, sizeof(struct timespec));
	    sts = pmExtendFetchGroup_event(fg, f[0], arg(f[1]), f[2], arg(f[3]), p->times, p->values, p->type, p->stss, p->max, &p->num, &p->sts);
	} else if (strcmp(cmd, "ts") == 0) {
	    p->kind = K_TS;
	    sts = pmExtendFetchGroup_timestamp(fg, &p->tv);
	} else if (strcmp(cmd, "fetch") == 0) {
	    sts = pmFetchGroup(fg);
	    fetched = sts >= 0;
	    printf("fetch %d\n", sts < 0 ? sts : 0);
	    report();
	    continue;
	} else if (strcmp(cmd, "store") == 0) {
	    char cmdline[1024];
	    sscanf(line, "%*s %255s %255s", a[0], a[1]);
	    snprintf(cmdline, sizeof(cmdline), "pmstore -h %s %s %s >/dev/null", argv[2], a[0], a[1]);
	    if (system(cmdline) != 0) {
		fprintf(stderr, "failed: %s\n", cmdline);
		return 2;
	    }
	    continue;
	} else if (strcmp(cmd, "sleep") == 0) {
	    struct timespec ts;
	    double d = atof(a[1]);
	    ts.tv_sec = (time_t)d;
	    ts.tv_nsec = (long)((d - ts.tv_sec) * 1e9);
	    nanosleep(&ts, NULL);
	    continue;
	} else if (strcmp(cmd, "mode") == 0) {
	    pmHighResLogLabel label;
	    struct timespec when, delta = { 0, 0 };
	    int mode = PM_MODE_FORW;
	    double d = n > 2 ? atof(a[2]) : 0;

	    if (strcmp(a[1], "interp") == 0)
		mode = PM_MODE_INTERP;
	    else if (strcmp(a[1], "back") == 0)
		mode = PM_MODE_BACK;
	    delta.tv_sec = (time_t)d;
	    delta.tv_nsec = (long)((d - delta.tv_sec) * 1e9 + 0.5);
	    if ((sts = pmUseContext(pmGetFetchGroupContext(fg))) < 0 ||
		(sts = pmGetHighResArchiveLabel(&label)) < 0) {
		printf("mode %d\n", sts);
		continue;
	    }
	    when = label.start;
	    if (mode == PM_MODE_BACK && (sts = pmGetHighResArchiveEnd(&when)) < 0) {
		printf("mode %d\n", sts);
		continue;
	    }
	    sts = pmSetModeHighRes(mode, &when, &delta);
	    printf("mode %d\n", sts);
	    continue;
	} else if (strcmp(cmd, "clear") == 0) {
	    sts = pmClearFetchGroup(fg);
	    printf("clear %d\n", sts);
	    nh = 0;
	    continue;
	} else {
	    fprintf(stderr, "bad script line: %s", line);
	    return 2;
	}
	printf("extend %s %d\n", cmd, sts);
	if (sts == 0)
	    nh++;
    }
    pmDestroyFetchGroup(fg);
    return 0;
}
