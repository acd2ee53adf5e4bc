/*
 * libpcp's side of the side-by-side benchmarks in package bench.
 *
 *   bench check CASE [ARG]          print what libpcp computes, for the Go
 *                                   test to compare with gopcp's answer
 *   bench time CASE NS [ARG]        time CASE and print "ns N" (ns per op)
 *
 * NS is the target duration of the final timed run in nanoseconds; the
 * number of iterations grows until one run lasts that long, as Go's
 * testing.Benchmark does. Each timed loop calls only the operation under
 * test (and, where PCP's callers must, the matching free).
 *
 * Cases and their standard input:
 *   result, highres          one PDU as hex: __pmDecodeResult or
 *                            __pmDecodeHighResResult, then __pmFreeResult
 *   encode-result,           one PDU as hex, decoded once: __pmEncodeResult
 *   encode-highres           or __pmEncodeHighResResult, then
 *                            __pmUnpinPDUBuf of the new PDU
 *   pmns-load (ARG path)     pmLoadASCIINameSpace(path, 1), pmUnloadNameSpace
 *   pmns-load-nocpp (path)   pmLoadNameSpace(path), pmUnloadNameSpace
 *   pmns-lookup (ARG path)   names, one a line: pmLookupName of each in turn
 *   parseunits, unitsstr     unit strings, one a line: pmParseUnitsStr of
 *                            each; pmUnitsStr_r of each one's units
 *   extract-u64-double,      none: pmExtractValue of a U64 block as DOUBLE,
 *   extract-32-u64           of an in-situ 32-bit value as U64
 *
 * libpcp overwrites a PDU as it decodes it (numbers in value blocks are
 * swapped in place), so each decode starts by copying the pristine PDU
 * back into the pinned buffer, as __pmGetPDU would have filled it. The
 * copy is timed on its own and subtracted; "restore N" reports it.
 */
#include <pcp/pmapi.h>
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * From PCP 6.0.3's src/include/pcp/libpcp.h, which Debian's libpcp3-dev
 * does not install; the functions are exported by libpcp.so.
 */
typedef uint32_t __pmPDU;
typedef struct {
    int64_t	sec;
    int32_t	nsec;
} __pmTimestamp;
typedef struct __pmResult {
    __pmTimestamp	timestamp;
    int			numpmid;
    pmValueSet		*vset[1];
} __pmResult;
extern int __pmDecodeResult(__pmPDU *, __pmResult **);
extern int __pmDecodeHighResResult(__pmPDU *, __pmResult **);
extern int __pmEncodeResult(const void *, const __pmResult *, __pmPDU **);
extern int __pmEncodeHighResResult(const __pmResult *, __pmPDU **);
extern void __pmFreeResult(__pmResult *);
extern __pmPDU *__pmFindPDUBuf(int);
extern int __pmUnpinPDUBuf(void *);

#define PDU_HIGHRES_RESULT 0x7015

static void
die(const char *what, int sts)
{
    fprintf(stderr, "bench: %s: %s\n", what, sts < 0 ? pmErrStr(sts) : "failed");
    exit(1);
}

static double
now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double benchtime;

/* measure returns the ns per op of loop, grown until a run lasts benchtime. */
static double
measure(void (*loop)(long))
{
    long n = 1;
    for (;;) {
	double t0 = now_ns(), el;
	loop(n);
	el = now_ns() - t0;
	if (el >= benchtime || n >= 1000000000L)
	    return el / n;
	{
	    long next = el > 0 ? (long)(benchtime * 1.2 * n / el) : 100 * n;
	    if (next > 100 * n)
		next = 100 * n;
	    if (next < n + 1)
		next = n + 1;
	    n = next;
	}
    }
}

/* Input lines. */
static char **lines;
static int nlines;

static void
readlines(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
	if (len > 0 && line[len-1] == '\n')
	    line[--len] = '\0';
	lines = realloc(lines, (nlines + 1) * sizeof(*lines));
	lines[nlines++] = strdup(line);
    }
    free(line);
}

/* The PDU cases. */
static unsigned char *pristine;	/* header in host order, as __pmGetPDU leaves it */
static __pmPDU *pdubuf;		/* pinned once, reused */
static int pdulen, highres;
static __pmResult *decoded;	/* for the encoders */

static void
readpdu(void)
{
    const char *hex;
    int i;
    uint32_t w;
    if (nlines < 1)
	die("no PDU on standard input", 0);
    hex = lines[0];
    pdulen = (int)strlen(hex) / 2;
    pristine = malloc(pdulen);
    for (i = 0; i < pdulen; i++) {
	unsigned int b;
	if (sscanf(hex + 2 * i, "%2x", &b) != 1)
	    die("bad hex", 0);
	pristine[i] = (unsigned char)b;
    }
    for (i = 0; i < 3; i++) {
	memcpy(&w, pristine + 4 * i, 4);
	w = ntohl(w);
	memcpy(pristine + 4 * i, &w, 4);
    }
    highres = ((uint32_t *)pristine)[1] == PDU_HIGHRES_RESULT;
    if ((pdubuf = __pmFindPDUBuf(pdulen)) == NULL)
	die("__pmFindPDUBuf", 0);
}

static inline void
restore(void)
{
    memcpy(pdubuf, pristine, pdulen);
    __asm__ volatile("" ::: "memory");
}

static __pmResult *
decode(void)
{
    __pmResult *rp;
    int sts = highres ? __pmDecodeHighResResult(pdubuf, &rp) : __pmDecodeResult(pdubuf, &rp);
    if (sts < 0)
	die("decode", sts);
    return rp;
}

static void
loop_restore(long n)
{
    long i;
    for (i = 0; i < n; i++)
	restore();
}

static void
loop_decode(long n)
{
    long i;
    for (i = 0; i < n; i++) {
	restore();
	__pmFreeResult(decode());
    }
}

static __pmPDU *
encode(void)
{
    __pmPDU *out;
    int sts = highres ? __pmEncodeHighResResult(decoded, &out) : __pmEncodeResult(NULL, decoded, &out);
    if (sts < 0)
	die("encode", sts);
    return out;
}

static void
loop_encode(long n)
{
    long i;
    for (i = 0; i < n; i++)
	__pmUnpinPDUBuf(encode());
}

static void
printresult(const __pmResult *rp)
{
    int i, j, k;
    printf("ts %" PRId64 " %d\nnumpmid %d\n", rp->timestamp.sec, rp->timestamp.nsec, rp->numpmid);
    for (i = 0; i < rp->numpmid; i++) {
	const pmValueSet *vs = rp->vset[i];
	printf("pmid %u numval %d", vs->pmid, vs->numval);
	if (vs->numval <= 0) {
	    printf("\n");
	    continue;
	}
	printf(" valfmt %d\n", vs->valfmt);
	for (j = 0; j < vs->numval; j++) {
	    const pmValue *v = &vs->vlist[j];
	    if (vs->valfmt == PM_VAL_INSITU) {
		printf("inst %d lval %d\n", v->inst, v->value.lval);
		continue;
	    }
	    printf("inst %d type %d data ", v->inst, v->value.pval->vtype);
	    for (k = 0; k < (int)v->value.pval->vlen - PM_VAL_HDR_SIZE; k++)
		printf("%02x", (unsigned char)v->value.pval->vbuf[k]);
	    printf("\n");
	}
    }
}

static void
printpdu(__pmPDU *p)
{
    int i, len = (int)p[0];
    p[0] = htonl(p[0]);
    p[1] = htonl(p[1]);
    p[2] = 0;	/* "from" is the sender's to fill in */
    for (i = 0; i < len; i++)
	printf("%02x", ((unsigned char *)p)[i]);
    printf("\n");
}

/* PMNS cases. */
static const char *pmnspath;
static const char **names;
static pmID pmidsink;

static void
loop_pmns_load(long n)
{
    long i;
    int sts;
    for (i = 0; i < n; i++) {
	if ((sts = pmLoadASCIINameSpace(pmnspath, 1)) < 0)
	    die("pmLoadASCIINameSpace", sts);
	pmUnloadNameSpace();
    }
}

static void
loop_pmns_load_nocpp(long n)
{
    long i;
    int sts;
    for (i = 0; i < n; i++) {
	if ((sts = pmLoadNameSpace(pmnspath)) < 0)
	    die("pmLoadNameSpace", sts);
	pmUnloadNameSpace();
    }
}

static void
loop_pmns_lookup(long n)
{
    long i;
    int j, sts;
    for (i = 0; i < n; i++) {
	for (j = 0; j < nlines; j++) {
	    if ((sts = pmLookupName(1, &names[j], &pmidsink)) < 0)
		die(names[j], sts);
	}
    }
}

/* Units cases. */
static pmUnits *units;
static double multsink;
static char strsink[64];

static void
loop_parseunits(long n)
{
    long i;
    int j, sts;
    char *errmsg;
    for (i = 0; i < n; i++) {
	for (j = 0; j < nlines; j++) {
	    if ((sts = pmParseUnitsStr(lines[j], &units[j], &multsink, &errmsg)) < 0) {
		free(errmsg);
		die(lines[j], sts);
	    }
	}
    }
}

static void
loop_unitsstr(long n)
{
    long i;
    int j;
    for (i = 0; i < n; i++)
	for (j = 0; j < nlines; j++)
	    pmUnitsStr_r(&units[j], strsink, sizeof(strsink));
}

/* Extract cases. */
static union {
    pmValueBlock vb;
    char buf[PM_VAL_HDR_SIZE + 8];
} u64block;
static pmValue v64, v32;
static pmAtomValue atomsink;

static void
loop_extract_u64_double(long n)
{
    long i;
    for (i = 0; i < n; i++)
	if (pmExtractValue(PM_VAL_DPTR, &v64, PM_TYPE_U64, &atomsink, PM_TYPE_DOUBLE) < 0)
	    die("pmExtractValue", 0);
}

static void
loop_extract_32_u64(long n)
{
    long i;
    for (i = 0; i < n; i++)
	if (pmExtractValue(PM_VAL_INSITU, &v32, PM_TYPE_32, &atomsink, PM_TYPE_U64) < 0)
	    die("pmExtractValue", 0);
}

static void
report(void (*loop)(long), int timing)
{
    if (timing)
	printf("ns %.3f\n", measure(loop));
}

int
main(int argc, char **argv)
{
    const char *mode, *name;
    int timing, argi = 3, j, sts;

    if (argc < 3)
	die("usage: bench check|time CASE [NS] [ARG]", 0);
    mode = argv[1];
    name = argv[2];
    timing = strcmp(mode, "time") == 0;
    if (timing) {
	if (argc < 4)
	    die("time needs NS", 0);
	benchtime = atof(argv[argi++]);
    }
    if (argi < argc)
	pmnspath = argv[argi];
    readlines();

    if (strcmp(name, "result") == 0 || strcmp(name, "highres") == 0) {
	readpdu();
	if (!timing) {
	    restore();
	    decoded = decode();
	    printresult(decoded);
	    __pmFreeResult(decoded);
	    return 0;
	}
	{
	    double restore_ns = measure(loop_restore);
	    double total = measure(loop_decode);
	    printf("ns %.3f\nrestore %.3f\n", total - restore_ns, restore_ns);
	}
    }
    else if (strcmp(name, "encode-result") == 0 || strcmp(name, "encode-highres") == 0) {
	readpdu();
	restore();
	decoded = decode();
	if (!timing) {
	    __pmPDU *p = encode();
	    printpdu(p);
	    __pmUnpinPDUBuf(p);
	}
	report(loop_encode, timing);
	__pmFreeResult(decoded);
    }
    else if (strcmp(name, "pmns-load") == 0 || strcmp(name, "pmns-load-nocpp") == 0) {
	int cpp = strcmp(name, "pmns-load") == 0;
	if (!timing) {
	    if ((sts = cpp ? pmLoadASCIINameSpace(pmnspath, 1) : pmLoadNameSpace(pmnspath)) < 0)
		die("load", sts);
	    for (j = 0; j < nlines; j++) {
		const char *nm = lines[j];
		pmID id;
		if ((sts = pmLookupName(1, &nm, &id)) < 0)
		    printf("%s %s\n", nm, pmErrStr(sts));
		else
		    printf("%s %u\n", nm, id);
	    }
	    pmUnloadNameSpace();
	    return 0;
	}
	report(cpp ? loop_pmns_load : loop_pmns_load_nocpp, timing);
    }
    else if (strcmp(name, "pmns-lookup") == 0) {
	names = (const char **)lines;
	if ((sts = pmLoadASCIINameSpace(pmnspath, 1)) < 0)
	    die("pmLoadASCIINameSpace", sts);
	report(loop_pmns_lookup, timing);
    }
    else if (strcmp(name, "parseunits") == 0 || strcmp(name, "unitsstr") == 0) {
	units = calloc(nlines + 1, sizeof(*units));
	if (!timing) {
	    for (j = 0; j < nlines; j++) {
		char *errmsg = NULL;
		double mult = 0;
		uint64_t bits;
		pmUnits *u = &units[j];
		if ((sts = pmParseUnitsStr(lines[j], u, &mult, &errmsg)) < 0) {
		    printf("%s\n", errmsg);
		    free(errmsg);
		    continue;
		}
		memcpy(&bits, &mult, 8);
		printf("%d %d %d %d %d %d %016" PRIx64 " [%s]\n", u->dimSpace, u->dimTime,
			u->dimCount, u->scaleSpace, u->scaleTime, u->scaleCount, bits,
			pmUnitsStr_r(u, strsink, sizeof(strsink)));
	    }
	    return 0;
	}
	loop_parseunits(1);
	report(strcmp(name, "parseunits") == 0 ? loop_parseunits : loop_unitsstr, timing);
    }
    else if (strcmp(name, "extract-u64-double") == 0 || strcmp(name, "extract-32-u64") == 0) {
	uint64_t u = 123456789012345ULL;
	u64block.vb.vtype = PM_TYPE_U64;
	u64block.vb.vlen = PM_VAL_HDR_SIZE + 8;
	memcpy(u64block.vb.vbuf, &u, 8);
	v64.inst = PM_IN_NULL;
	v64.value.pval = &u64block.vb;
	v32.inst = PM_IN_NULL;
	v32.value.lval = 1234567;
	if (!timing) {
	    uint64_t bits;
	    pmExtractValue(PM_VAL_DPTR, &v64, PM_TYPE_U64, &atomsink, PM_TYPE_DOUBLE);
	    memcpy(&bits, &atomsink.d, 8);
	    printf("double %016" PRIx64 "\n", bits);
	    pmExtractValue(PM_VAL_INSITU, &v32, PM_TYPE_32, &atomsink, PM_TYPE_U64);
	    printf("u64 %" PRIu64 "\n", atomsink.ull);
	    return 0;
	}
	report(strcmp(name, "extract-u64-double") == 0 ? loop_extract_u64_double : loop_extract_32_u64, timing);
    }
    else
	die(name, 0);
    return 0;
}
