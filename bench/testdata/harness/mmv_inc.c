/*
 * mmv_inc: times a value update through libpcp_mmv, the C side of
 * bench/mmv_test.go.
 *
 * usage: mmv_inc MODE PATH BENCHTIME_NS
 * MODE is inc_value (mmv_inc_value(base, v, 1), the documented update),
 * inc (mmv_inc(base, v)) or atomic (an atomic add on the value's memory,
 * the floor). Time is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so
 * that other work on a shared machine does not count. Prints ns/op, then
 * the value read back (which must equal the number of updates made, so
 * that the loop cannot have been skipped).
 */
#include <pcp/pmapi.h>
#include <pcp/mmv_stats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *base;
static pmAtomValue *value;
static long total;

static double
now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void
loop_inc_value(long n)
{
    for (long i = 0; i < n; i++)
	mmv_inc_value(base, value, 1);
}

static void
loop_inc(long n)
{
    for (long i = 0; i < n; i++)
	mmv_inc(base, value);
}

static void
loop_atomic(long n)
{
    for (long i = 0; i < n; i++)
	__atomic_fetch_add(&value->ull, 1, __ATOMIC_RELAXED);
}

int
main(int argc, char **argv)
{
    void (*loop)(long);
    double benchtime;
    long n = 1;
    mmv_registry_t *r;
    pmUnits none = MMV_UNITS(0,0,0,0,0,0);

    if (argc != 4) {
	fprintf(stderr, "usage: mmv_inc MODE PATH BENCHTIME_NS\n");
	return 2;
    }
    if (strcmp(argv[1], "inc_value") == 0)
	loop = loop_inc_value;
    else if (strcmp(argv[1], "inc") == 0)
	loop = loop_inc;
    else if (strcmp(argv[1], "atomic") == 0)
	loop = loop_atomic;
    else {
	fprintf(stderr, "mmv_inc: unknown mode %s\n", argv[1]);
	return 2;
    }
    benchtime = atof(argv[3]);
    if ((r = mmv_stats_registry(argv[2], 1, 0)) == NULL ||
	mmv_stats_add_metric(r, "count", 1, MMV_TYPE_U64, MMV_SEM_COUNTER, none, 0, NULL, NULL) < 0 ||
	(base = mmv_stats_start(r)) == NULL ||
	(value = mmv_lookup_value_desc(base, "count", NULL)) == NULL) {
	perror("mmv_inc: registry");
	return 1;
    }
    for (;;) {
	double t0 = now_ns(), el;
	loop(n);
	total += n;
	el = now_ns() - t0;
	if (el >= benchtime || n >= 4000000000L) {
	    printf("%.4f\n%llu\n", el / n, (unsigned long long)value->ull);
	    break;
	}
	{
	    long next = el > 0 ? (long)(benchtime * 1.2 * n / el) : 100 * n;
	    if (next > 100 * n)
		next = 100 * n;
	    if (next < n + 1)
		next = n + 1;
	    n = next;
	}
    }
    if ((long)value->ull != total) {
	fprintf(stderr, "mmv_inc: value %llu after %ld updates\n", (unsigned long long)value->ull, total);
	return 1;
    }
    return 0;
}
