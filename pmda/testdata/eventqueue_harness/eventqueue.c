/*
 * Drives libpcp_pmda's event queues (pmdaEventNewQueue and friends) from
 * a script on stdin, one command a line, and prints one line per command
 * (plus one per filter release), so that the same script run through
 * gopcp's pmda.EventQueues can be compared line by line. The commands
 * and the output format are described in pmda/eventqueue_script_test.go.
 * Build: cc -o eventqueue eventqueue.c -lpcp_pmda -lpcp
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXQ 64
static struct { char *name; int handle; } qs[MAXQ];
static int nq;

static int
qhandle(const char *name)
{
    int i;
    for (i = 0; i < nq; i++)
	if (strcmp(qs[i].name, name) == 0)
	    return qs[i].handle;
    return 1000;	/* a handle no queue has */
}

static void
remember(const char *name, int handle)
{
    int i;
    for (i = 0; i < nq; i++)
	if (strcmp(qs[i].name, name) == 0) {
	    qs[i].handle = handle;
	    return;
	}
    if (nq < MAXQ) {
	qs[nq].name = strdup(name);
	qs[nq].handle = handle;
	nq++;
    }
}

/*
 * One record per event, its text as a string parameter; events whose text
 * starts with F fail to decode, Z decode to nothing, T to two records.
 */
static int
decode(int array, void *data, size_t size, struct timeval *tv, void *arg)
{
    pmAtomValue a;
    char buf[4096];
    int sts, n = size < sizeof(buf) - 1 ? (int)size : (int)sizeof(buf) - 1;
    (void)arg;

    memcpy(buf, data, n);
    buf[n] = '\0';
    if (buf[0] == 'F')
	return PM_ERR_CONV;
    if (buf[0] == 'Z')
	return 0;
    if ((sts = pmdaEventAddRecord(array, tv, PM_EVENT_FLAG_POINT)) < 0)
	return sts;
    a.cp = buf;
    if ((sts = pmdaEventAddParam(array, pmID_build(29, 0, 5), PM_TYPE_STRING, &a)) < 0)
	return sts;
    if (buf[0] != 'T')
	return 1;
    if ((sts = pmdaEventAddRecord(array, tv, PM_EVENT_FLAG_END)) < 0)
	return sts;
    return 2;
}

/* a filter keeps the events whose text starts with its prefix */
static int
apply(void *filter, void *data, size_t size)
{
    size_t n = strlen((char *)filter);
    return !(size >= n && memcmp(data, filter, n) == 0);
}

static void
release(void *filter)
{
    printf("release %s\n", (char *)filter);
    free(filter);
}

static unsigned int
word(const unsigned char *p)
{
    unsigned int v;
    memcpy(&v, p, 4);
    return v;
}

/* prints the records of an event array, and its bytes with the
 * timestamps of missed records (the time of the fetch) zeroed */
static void
dump(pmValueBlock *vb)
{
    int len = vb->vlen - PM_VAL_HDR_SIZE, off = 4, r, p, nrec;
    unsigned char *buf = malloc(len);

    memcpy(buf, vb->vbuf, len);
    nrec = word(buf);
    for (r = 0; r < nrec && off + 16 <= len; r++) {
	unsigned int flags = word(buf + off + 8), np = word(buf + off + 12);
	if (flags & PM_EVENT_FLAG_MISSED) {
	    memset(buf + off, 0, 8);
	    printf(" [missed %u]", np);
	    off += 16;
	    continue;
	}
	printf(" [%u.%06u %#x", word(buf + off), word(buf + off + 4), flags);
	off += 16;
	for (p = 0; p < (int)np && off + 8 <= len; p++) {
	    int plen = word(buf + off + 4) & 0xffffff;
	    int padded = (plen + 3) & ~3;
	    printf(" \"%.*s\"", plen - 4, (char *)buf + off + 8);
	    /* libpcp_pmda leaves the padding as it finds it */
	    if (off + 4 + padded <= len)
		memset(buf + off + 4 + plen, 0, padded - plen);
	    off += 4 + padded;
	}
	printf("]");
    }
    printf(" hex=");
    for (r = 0; r < len; r++)
	printf("%02x", buf[r]);
    free(buf);
}

static void
counter(const char *what, int sts, pmAtomValue *a, int u64)
{
    (void)what;
    if (sts < 0)
	printf(" %d\n", sts);
    else if (u64)
	printf(" %llu\n", (unsigned long long)a->ull);
    else
	printf(" %u\n", a->ul);
}

static void
run(FILE *in)
{
    static char line[1 << 20];
    char *tok[8], *save;
    pmAtomValue atom;
    int sts, n;

    while (fgets(line, sizeof(line), in) != NULL) {
	line[strcspn(line, "\n")] = '\0';
	if (line[0] == '#' || line[0] == '\0')
	    continue;
	printf("%s:", line);
	memset(tok, 0, sizeof(tok));
	for (n = 0, save = NULL; n < 8; n++)
	    if ((tok[n] = strtok_r(n ? NULL : line, " ", &save)) == NULL)
		break;
	for (; n < 8; n++)
	    tok[n] = "";
	if (strcmp(tok[0], "queue") == 0) {
	    /* queue NAME MAXMEM */
	    sts = pmdaEventNewQueue(strdup(tok[1]), strtoul(tok[2], NULL, 10));
	    if (sts >= 0)
		remember(tok[1], sts);
	    printf(" %d\n", sts);
	} else if (strcmp(tok[0], "active") == 0) {
	    /* active NAME MAXMEM NCLIENTS */
	    sts = pmdaEventNewActiveQueue(strdup(tok[1]), strtoul(tok[2], NULL, 10), atoi(tok[3]));
	    if (sts >= 0)
		remember(tok[1], sts);
	    printf(" %d\n", sts);
	} else if (strcmp(tok[0], "handle") == 0) {
	    printf(" %d\n", pmdaEventQueueHandle(tok[1]));
	} else if (strcmp(tok[0], "append") == 0) {
	    /* append QUEUE SEC.USEC TEXT */
	    struct timeval tv;
	    char *dot = strchr(tok[2], '.');
	    tv.tv_sec = atol(tok[2]);
	    tv.tv_usec = dot ? atol(dot + 1) : 0;
	    printf(" %d\n", pmdaEventQueueAppend(qhandle(tok[1]), tok[3], strlen(tok[3]), &tv));
	} else if (strcmp(tok[0], "client") == 0) {
	    sts = pmdaEventNewClient(atoi(tok[1]));
	    printf(" %d\n", sts < 0 ? sts : 0);
	} else if (strcmp(tok[0], "end") == 0) {
	    printf(" %d\n", pmdaEventEndClient(atoi(tok[1])));
	} else if (strcmp(tok[0], "records") == 0) {
	    /* records QUEUE CTX */
	    atom.vbp = NULL;
	    sts = pmdaEventQueueRecords(qhandle(tok[1]), &atom, atoi(tok[2]), decode, NULL);
	    if (sts < 0)
		printf(" %d\n", sts);
	    else if (sts == PMDA_FETCH_NOVALUES)
		printf(" none\n");
	    else {
		printf(" %d", atom.vbp->vtype);
		dump(atom.vbp);
		printf("\n");
	    }
	} else if (strcmp(tok[0], "access") == 0) {
	    /* access QUEUE CTX 0|1 */
	    printf(" %d\n", pmdaEventSetAccess(atoi(tok[2]), qhandle(tok[1]), atoi(tok[3])));
	} else if (strcmp(tok[0], "filter") == 0) {
	    /* filter QUEUE CTX PREFIX|- ; "-" sets no filter, only access */
	    if (strcmp(tok[3], "-") == 0)
		sts = pmdaEventSetFilter(atoi(tok[2]), qhandle(tok[1]), NULL, NULL, NULL);
	    else {
		char *f = strdup(tok[3]);
		sts = pmdaEventSetFilter(atoi(tok[2]), qhandle(tok[1]), f, apply, release);
		if (sts < 0)
		    free(f);
	    }
	    printf(" %d\n", sts);
	} else if (strcmp(tok[0], "counter") == 0) {
	    counter(tok[0], pmdaEventQueueCounter(qhandle(tok[1]), &atom), &atom, 0);
	} else if (strcmp(tok[0], "clients") == 0) {
	    counter(tok[0], pmdaEventQueueClients(qhandle(tok[1]), &atom), &atom, 0);
	} else if (strcmp(tok[0], "memory") == 0) {
	    counter(tok[0], pmdaEventQueueMemory(qhandle(tok[1]), &atom), &atom, 1);
	} else if (strcmp(tok[0], "bytes") == 0) {
	    counter(tok[0], pmdaEventQueueBytes(qhandle(tok[1]), &atom), &atom, 1);
	} else if (strcmp(tok[0], "nclients") == 0) {
	    counter(tok[0], pmdaEventClients(&atom), &atom, 0);
	} else if (strcmp(tok[0], "shutdown") == 0) {
	    printf(" %d\n", pmdaEventQueueShutdown(qhandle(tok[1])));
	} else {
	    printf(" unknown command\n");
	}
    }
}

/*
 * With -b, stdin holds many scripts, each ended by a "%%" line; each runs
 * in a child of its own (fresh queue state, without paying for another
 * exec) and its output is ended by "%%" too.
 */
int
main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && strcmp(argv[1], "-b") == 0) {
	static char line[1 << 20];
	char *buf = NULL;
	size_t len = 0, cap = 0;
	while (fgets(line, sizeof(line), stdin) != NULL) {
	    size_t n = strlen(line);
	    if (strcmp(line, "%%\n") != 0) {
		if (len + n + 1 > cap) {
		    cap = 2 * (len + n + 1);
		    if ((buf = realloc(buf, cap)) == NULL)
			return 1;
		}
		memcpy(buf + len, line, n + 1);
		len += n;
		continue;
	    }
	    fflush(stdout);
	    pid_t pid = fork();
	    if (pid < 0)
		return 1;
	    if (pid == 0) {
		FILE *in = fmemopen(buf ? buf : "", len, "r");
		if (in != NULL)
		    run(in);
		fflush(stdout);
		_exit(0);
	    }
	    waitpid(pid, NULL, 0);
	    printf("%%%%\n");
	    len = 0;
	}
	return 0;
    }
    run(stdin);
    return 0;
}
