/*
 * writer: writes one of the test registries with PCP's libpcp_mmv, the
 * reference the Go writer's files are compared with (mmvdump's output,
 * and pmdammv's answers under a private pmcd).
 *
 * usage: writer SCENARIO PATH [wait]
 * With "wait" it keeps running (so a Process-flagged file stays live)
 * until its standard input is closed.
 */
#include <pcp/pmapi.h>
#include <pcp/mmv_stats.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

static void
die(const char *what)
{
    fprintf(stderr, "writer: %s failed: %s\n", what, strerror(errno));
    exit(1);
}

#define CHECK(call) do { if ((call) < 0) die(#call); } while (0)
/*
 * libpcp_mmv 6.0.3's mmv_stats_add_instance adds the instance but then
 * returns -1 with EINVAL whatever happened (its search loop runs on past
 * the domain it found), so its result cannot be checked.
 */
#define ADDINST(call) ((void)(call))

static pmUnits none = MMV_UNITS(0,0,0,0,0,0);

/* v1: every type, both indom and singular values, help text, sentinels */
static void *
scenario_v1(const char *path, int flags)
{
    pmUnits kbps = MMV_UNITS(1,-1,0,PM_SPACE_KBYTE,PM_TIME_SEC,0);
    pmUnits count = MMV_UNITS(0,0,1,0,0,PM_COUNT_ONE);
    pmUnits usec = MMV_UNITS(0,1,0,0,PM_TIME_USEC,0);
    mmv_registry_t *r = mmv_stats_registry(path, 42, flags);
    void *m;

    if (!r) die("registry");
    CHECK(mmv_stats_add_indom(r, 7, "products", "Products made by the factory"));
    ADDINST(mmv_stats_add_instance(r, 7, 0, "Anvils"));
    ADDINST(mmv_stats_add_instance(r, 7, 1, "Rockets"));
    ADDINST(mmv_stats_add_instance(r, 7, 2, "Giant_Rubber_Bands"));
    CHECK(mmv_stats_add_indom(r, 9, "queues", NULL));
    ADDINST(mmv_stats_add_instance(r, 9, 10, "q10"));
    ADDINST(mmv_stats_add_instance(r, 9, 20, "q20"));

    CHECK(mmv_stats_add_metric(r, "products.count", 7, MMV_TYPE_U64, MMV_SEM_COUNTER, count, 7, "Acme factory product throughput", "Monotonic increasing counter of products produced."));
    CHECK(mmv_stats_add_metric(r, "products.time", 8, MMV_TYPE_U64, MMV_SEM_COUNTER, usec, 7, "Machine time", NULL));
    CHECK(mmv_stats_add_metric(r, "i32", 1, MMV_TYPE_I32, MMV_SEM_INSTANT, none, 0, "a signed 32-bit gauge", NULL));
    CHECK(mmv_stats_add_metric(r, "u32", 2, MMV_TYPE_U32, MMV_SEM_DISCRETE, none, 0, NULL, NULL));
    CHECK(mmv_stats_add_metric(r, "i64", 3, MMV_TYPE_I64, MMV_SEM_INSTANT, kbps, 0, NULL, "long help only"));
    CHECK(mmv_stats_add_metric(r, "float", 4, MMV_TYPE_FLOAT, MMV_SEM_INSTANT, none, 9, "per queue", NULL));
    CHECK(mmv_stats_add_metric(r, "double", 5, MMV_TYPE_DOUBLE, MMV_SEM_COUNTER, usec, 0, NULL, NULL));
    CHECK(mmv_stats_add_metric(r, "text", 6, MMV_TYPE_STRING, MMV_SEM_DISCRETE, none, 0, "a string", NULL));
    CHECK(mmv_stats_add_metric(r, "texts", 10, MMV_TYPE_STRING, MMV_SEM_INSTANT, none, 9, NULL, NULL));
    CHECK(mmv_stats_add_metric(r, "elapsed", 11, MMV_TYPE_ELAPSED, MMV_SEM_COUNTER, usec, 0, "timed sections", NULL));
    CHECK(mmv_stats_add_metric(r, "missing", 12, MMV_TYPE_U64, MMV_SEM_INSTANT, none, 0, NULL, NULL));
    CHECK(mmv_stats_add_metric(r, "missing_text", 13, MMV_TYPE_STRING, MMV_SEM_INSTANT, none, 0, NULL, NULL));

    if ((m = mmv_stats_start(r)) == NULL) die("start");
    mmv_inc_value(m, mmv_lookup_value_desc(m, "products.count", "Anvils"), 3);
    mmv_inc_value(m, mmv_lookup_value_desc(m, "products.count", "Rockets"), 5);
    mmv_inc_value(m, mmv_lookup_value_desc(m, "products.time", "Giant_Rubber_Bands"), 70000);
    mmv_set_value(m, mmv_lookup_value_desc(m, "i32", NULL), -17);
    mmv_set_value(m, mmv_lookup_value_desc(m, "u32", NULL), 4000000000.0);
    mmv_set_value(m, mmv_lookup_value_desc(m, "i64", NULL), -1234567890123.0);
    mmv_set_value(m, mmv_lookup_value_desc(m, "float", "q10"), 1.5);
    mmv_set_value(m, mmv_lookup_value_desc(m, "float", "q20"), -0.25);
    mmv_inc_value(m, mmv_lookup_value_desc(m, "double", NULL), 2.75);
    mmv_stats_set_string(m, "text", NULL, "hello, world");
    mmv_stats_set_string(m, "texts", "q10", "ten");
    mmv_set_value(m, mmv_lookup_value_desc(m, "elapsed", NULL), 123456);
    /* all one bits: with MMV_FLAG_SENTINEL, pmdammv serves no value */
    mmv_lookup_value_desc(m, "missing", NULL)->ull = ~0ULL;
    return m;
}

/* v2: names of 64 bytes or more */
static void *
scenario_v2(const char *path, int flags)
{
    static const char longmetric[] =
	"a.metric.name.that.is.longer.than.sixty.four.bytes.so.it.needs.version.two";
    static const char longinst[] =
	"an instance name that is also longer than sixty-four bytes, with spaces";
    mmv_registry_t *r = mmv_stats_registry(path, 43, flags);
    void *m;

    if (!r) die("registry");
    CHECK(mmv_stats_add_indom(r, 1, "long names", NULL));
    ADDINST(mmv_stats_add_instance(r, 1, 5, "short"));
    ADDINST(mmv_stats_add_instance(r, 1, 6, longinst));
    CHECK(mmv_stats_add_metric(r, longmetric, 1, MMV_TYPE_U32, MMV_SEM_COUNTER, none, 1, "long", "a long name"));
    CHECK(mmv_stats_add_metric(r, "short", 2, MMV_TYPE_STRING, MMV_SEM_DISCRETE, none, 0, NULL, NULL));
    if ((m = mmv_stats_start(r)) == NULL) die("start");
    mmv_inc_value(m, mmv_lookup_value_desc(m, longmetric, longinst), 9);
    mmv_stats_set_string(m, "short", NULL, "v2");
    return m;
}

/* v3: labels on the registry, indoms, instances and metrics */
static void *
scenario_v3(const char *path, int flags)
{
    mmv_registry_t *r = mmv_stats_registry(path, 44, flags);
    void *m;

    if (!r) die("registry");
    CHECK(mmv_stats_add_registry_label(r, "app", "\"acme\"", MMV_STRING_TYPE, 0));
    CHECK(mmv_stats_add_registry_label(r, "replica", "3", MMV_NUMBER_TYPE, 1));
    CHECK(mmv_stats_add_indom(r, 2, "sites", NULL));
    ADDINST(mmv_stats_add_instance(r, 2, 1, "north"));
    ADDINST(mmv_stats_add_instance(r, 2, 2, "south"));
    CHECK(mmv_stats_add_indom_label(r, 2, "region", "\"eu\"", MMV_STRING_TYPE, 0));
    CHECK(mmv_stats_add_instance_label(r, 2, 1, "primary", "true", MMV_BOOLEAN_TYPE, 0));
    CHECK(mmv_stats_add_instance_label(r, 2, 2, "tags", "[\"a\",\"b\"]", MMV_ARRAY_TYPE, 0));
    CHECK(mmv_stats_add_metric(r, "hits", 1, MMV_TYPE_U64, MMV_SEM_COUNTER, none, 2, "hits per site", NULL));
    CHECK(mmv_stats_add_metric(r, "load", 2, MMV_TYPE_DOUBLE, MMV_SEM_INSTANT, none, 0, NULL, NULL));
    CHECK(mmv_stats_add_metric_label(r, 1, "kind", "{\"a\":1}", MMV_MAP_TYPE, 0));
    CHECK(mmv_stats_add_metric_label(r, 2, "empty", "null", MMV_NULL_TYPE, 1));
    if ((m = mmv_stats_start(r)) == NULL) die("start");
    mmv_inc_value(m, mmv_lookup_value_desc(m, "hits", "south"), 11);
    mmv_set_value(m, mmv_lookup_value_desc(m, "load", NULL), 0.5);
    return m;
}

/*
 * many: hundreds of metrics of every type and semantics, a fifth of them
 * over a domain of 50 instances, help on all, labels on some (version 3)
 */
static void *
scenario_many(const char *path, int flags)
{
    static const mmv_metric_type_t types[] = {
	MMV_TYPE_I32, MMV_TYPE_U32, MMV_TYPE_I64, MMV_TYPE_U64,
	MMV_TYPE_FLOAT, MMV_TYPE_DOUBLE, MMV_TYPE_STRING, MMV_TYPE_ELAPSED,
    };
    static const mmv_metric_sem_t sems[] = {
	MMV_SEM_COUNTER, MMV_SEM_INSTANT, MMV_SEM_DISCRETE,
    };
    mmv_registry_t *r = mmv_stats_registry(path, 45, flags);
    char name[64], help[64], inst[32], label[32], text[32];
    int i, j, indom;
    mmv_metric_type_t type;
    mmv_metric_sem_t sem;
    void *m;

    if (!r) die("registry");
    CHECK(mmv_stats_add_registry_label(r, "app", "\"many\"", MMV_STRING_TYPE, 0));
    CHECK(mmv_stats_add_indom(r, 3, "workers", "worker threads"));
    for (i = 0; i < 50; i++) {
	/* libpcp_mmv keeps the pointers it is given until it starts */
	snprintf(inst, sizeof(inst), "worker%02d", i);
	ADDINST(mmv_stats_add_instance(r, 3, i, strdup(inst)));
    }
    for (i = 1; i <= 400; i++) {
	type = types[i % 8];
	sem = type == MMV_TYPE_ELAPSED ? MMV_SEM_COUNTER : sems[i % 3];
	indom = i % 5 == 0 ? 3 : 0;
	snprintf(name, sizeof(name), "group%d.metric%03d", i / 50, i);
	snprintf(help, sizeof(help), "metric number %d", i);
	CHECK(mmv_stats_add_metric(r, strdup(name), i, type, sem, none, indom, strdup(help), i % 2 ? strdup(help) : NULL));
	if (i % 40 == 0) {
	    snprintf(label, sizeof(label), "%d", i);
	    CHECK(mmv_stats_add_metric_label(r, i, "number", strdup(label), MMV_NUMBER_TYPE, 0));
	}
    }
    if ((m = mmv_stats_start(r)) == NULL) die("start");
    for (i = 1; i <= 400; i++) {
	type = types[i % 8];
	indom = i % 5 == 0;
	snprintf(name, sizeof(name), "group%d.metric%03d", i / 50, i);
	for (j = 0; j < (indom ? 50 : 1); j += 7) {
	    snprintf(inst, sizeof(inst), "worker%02d", j);
	    if (type == MMV_TYPE_STRING) {
		snprintf(text, sizeof(text), "text %d.%d", i, j);
		mmv_stats_set_string(m, name, indom ? inst : NULL, text);
	    } else {
		mmv_set_value(m, mmv_lookup_value_desc(m, name, indom ? inst : NULL), i * 1.5 + j);
	    }
	}
    }
    return m;
}

int
main(int argc, char **argv)
{
    const char *s;
    char buf[64];

    if (argc < 3) {
	fprintf(stderr, "usage: writer SCENARIO PATH [wait]\n");
	return 2;
    }
    s = argv[1];
    if (strcmp(s, "v1") == 0)
	scenario_v1(argv[2], MMV_FLAG_SENTINEL);
    else if (strcmp(s, "v1-noprefix") == 0)
	scenario_v1(argv[2], MMV_FLAG_NOPREFIX);
    else if (strcmp(s, "v2") == 0)
	scenario_v2(argv[2], MMV_FLAG_PROCESS);
    else if (strcmp(s, "v3") == 0)
	scenario_v3(argv[2], MMV_FLAG_SENTINEL|MMV_FLAG_NOPREFIX);
    else if (strcmp(s, "many") == 0)
	scenario_many(argv[2], MMV_FLAG_SENTINEL);
    else {
	fprintf(stderr, "writer: unknown scenario %s\n", s);
	return 2;
    }
    if (argc > 3 && strcmp(argv[3], "wait") == 0) {
	printf("ready\n");
	fflush(stdout);
	while (fread(buf, 1, sizeof(buf), stdin) > 0)
	    ;
    }
    return 0;
}
