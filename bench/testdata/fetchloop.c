/*
 * fetchloop: one bench client in a process of its own, fetching through
 * PCP's libpcp, so that the latencies a load shows are not the bench
 * process's own scheduling (its goroutines' threads waiting behind each
 * other for a CPU).
 *
 *   fetchloop HOST SECONDS COUNTER NAME...
 *
 * It opens a context on HOST (a libpcp host spec, "localhost:PORT"),
 * looks the NAMEs up, fetches them once, and writes "ready" to standard
 * output. Then it waits for standard input to end (EOF), which the bench
 * gives every client at once, and fetches the names as fast as it can
 * for SECONDS, timing each round trip with CLOCK_MONOTONIC. COUNTER is
 * a file of at least 8 bytes that every client maps and counts its
 * answers in, so that a round trip can say how many other answers came
 * while it waited ("-": none).
 *
 * Its report, on standard output after the load, is lines of words:
 *
 *   fetches N
 *   rusage UTIME_US STIME_US NVCSW NIVCSW   (over the load alone)
 *   LATENCY_NS OTHERS                        (N lines, one a round trip)
 *   end
 *
 * and then it waits for descriptor 3 to end before it closes its
 * context and exits, so that the bench can read its counts (and the
 * daemon's) while it is still there and idle.
 *
 *   gcc -O2 -o /tmp/fetchloop bench/testdata/fetchloop.c -lpcp
 */
#include <errno.h>
#include <fcntl.h>
#include <pcp/pmapi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* maxFetches bounds what one client keeps: 5 million round trips is
 * far beyond what a daemon answers one client in a bench's load. */
#define maxFetches 5000000

static void fail(const char *what, const char *why) {
	fprintf(stderr, "fetchloop: %s: %s\n", what, why);
	exit(1);
}

static int64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t tv_us(struct timeval tv) {
	return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* wait_eof reads fd until it ends. */
static void wait_eof(int fd) {
	char b[64];
	for (;;) {
		ssize_t k = read(fd, b, sizeof b);
		if (k == 0)
			return;
		if (k < 0 && errno != EINTR)
			fail("read", strerror(errno));
	}
}

int main(int argc, char **argv) {
	if (argc < 5)
		fail("usage", "fetchloop HOST SECONDS COUNTER NAME...");
	const char *host = argv[1];
	double secs = atof(argv[2]);
	if (!(secs > 0 && secs < 3600))
		fail(argv[2], "not a number of seconds");
	int nnames = argc - 4;
	const char **names = (const char **)(argv + 4);

	/* The shared count of answers, or a private one. */
	uint64_t own = 0, *answered = &own;
	if (strcmp(argv[3], "-") != 0) {
		int fd = open(argv[3], O_RDWR);
		if (fd < 0)
			fail(argv[3], strerror(errno));
		void *m = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED)
			fail(argv[3], strerror(errno));
		close(fd);
		answered = m;
	}

	int ctx = pmNewContext(PM_CONTEXT_HOST, host);
	if (ctx < 0)
		fail(host, pmErrStr(ctx));
	pmID *ids = calloc(nnames, sizeof(pmID));
	int64_t *lat = malloc(1024 * sizeof(int64_t));
	uint32_t *others = malloc(1024 * sizeof(uint32_t));
	if (ids == NULL || lat == NULL || others == NULL)
		fail("malloc", strerror(errno));
	size_t cap = 1024, n = 0;
	int sts = pmLookupName(nnames, names, ids);
	if (sts != nnames)
		fail("pmLookupName", sts < 0 ? pmErrStr(sts) : "a name is unknown");
	pmResult *rp;
	if ((sts = pmFetch(nnames, ids, &rp)) < 0) /* warm up */
		fail("pmFetch", pmErrStr(sts));
	pmFreeResult(rp);
	printf("ready\n");
	fflush(stdout);
	wait_eof(0);

	struct rusage ru0, ru1;
	getrusage(RUSAGE_SELF, &ru0);
	int64_t end = now_ns() + (int64_t)(secs * 1e9);
	for (;;) {
		int64_t t0 = now_ns();
		if (t0 > end)
			break;
		uint64_t a0 = __atomic_load_n(answered, __ATOMIC_RELAXED);
		if ((sts = pmFetch(nnames, ids, &rp)) < 0)
			fail("pmFetch", pmErrStr(sts));
		int64_t t1 = now_ns();
		uint64_t a1 = __atomic_fetch_add(answered, 1, __ATOMIC_RELAXED);
		pmFreeResult(rp);
		if (n == maxFetches)
			fail("fetches", "more than the bound a client keeps");
		if (n == cap) {
			cap = cap * 2 < maxFetches ? cap * 2 : maxFetches;
			lat = realloc(lat, cap * sizeof(int64_t));
			others = realloc(others, cap * sizeof(uint32_t));
			if (lat == NULL || others == NULL)
				fail("realloc", strerror(errno));
		}
		lat[n] = t1 - t0;
		others[n] = (uint32_t)(a1 - a0);
		n++;
	}
	getrusage(RUSAGE_SELF, &ru1);

	printf("fetches %zu\n", n);
	printf("rusage %lld %lld %ld %ld\n", (long long)(tv_us(ru1.ru_utime) - tv_us(ru0.ru_utime)),
	       (long long)(tv_us(ru1.ru_stime) - tv_us(ru0.ru_stime)), ru1.ru_nvcsw - ru0.ru_nvcsw,
	       ru1.ru_nivcsw - ru0.ru_nivcsw);
	for (size_t i = 0; i < n; i++)
		printf("%lld %u\n", (long long)lat[i], others[i]);
	printf("end\n");
	if (fflush(stdout) != 0)
		fail("stdout", strerror(errno));
	wait_eof(3);
	pmDestroyContext(ctx);
	return 0;
}
