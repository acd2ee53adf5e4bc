/*
 * Reference for pcp.ConvScale: each input line is
 *
 *   type  dimSpace dimTime dimCount scaleSpace scaleTime scaleCount  (in)
 *         dimSpace dimTime dimCount scaleSpace scaleTime scaleCount  (out)
 *         value
 *
 * with value in decimal for the integer types, as "f" or "d" and the hex
 * bits for float and double, and ignored otherwise. The line is echoed with
 * pmConvScale's answer; a conversion that kills libpcp with SIGFPE (a
 * divisor that wrapped to zero) is reported as such.
 */
#include <pcp/pmapi.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sigjmp_buf env;

static void
onfpe(int sig)
{
    (void)sig;
    siglongjmp(env, 1);
}

int
main(void)
{
    char line[512];

    signal(SIGFPE, onfpe);
    while (fgets(line, sizeof(line), stdin) != NULL) {
	int type, u[12], sts;
	char val[128];
	pmUnits iu, ou;
	pmAtomValue in, out;

	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "%d %d %d %d %d %d %d %d %d %d %d %d %d %127s", &type,
		   &u[0], &u[1], &u[2], &u[3], &u[4], &u[5],
		   &u[6], &u[7], &u[8], &u[9], &u[10], &u[11], val) != 14) {
	    fprintf(stderr, "bad input: %s\n", line);
	    return 1;
	}
	memset(&iu, 0, sizeof(iu));
	memset(&ou, 0, sizeof(ou));
	iu.dimSpace = u[0]; iu.dimTime = u[1]; iu.dimCount = u[2];
	iu.scaleSpace = u[3]; iu.scaleTime = u[4]; iu.scaleCount = u[5];
	ou.dimSpace = u[6]; ou.dimTime = u[7]; ou.dimCount = u[8];
	ou.scaleSpace = u[9]; ou.scaleTime = u[10]; ou.scaleCount = u[11];

	memset(&in, 0, sizeof(in));
	switch (type) {
	case PM_TYPE_32:
	    in.l = (int32_t)strtoll(val, NULL, 10);
	    break;
	case PM_TYPE_U32:
	    in.ul = (uint32_t)strtoull(val, NULL, 10);
	    break;
	case PM_TYPE_64:
	    in.ll = strtoll(val, NULL, 10);
	    break;
	case PM_TYPE_U64:
	    in.ull = strtoull(val, NULL, 10);
	    break;
	case PM_TYPE_FLOAT: {
	    uint32_t b = (uint32_t)strtoul(val + 1, NULL, 16);
	    memcpy(&in.f, &b, 4);
	    break;
	}
	case PM_TYPE_DOUBLE: {
	    uint64_t b = strtoull(val + 1, NULL, 16);
	    memcpy(&in.d, &b, 8);
	    break;
	}
	}
	memset(&out, 0, sizeof(out));

	printf("%s -> ", line);
	fflush(stdout);
	if (sigsetjmp(env, 1) != 0) {
	    printf("SIGFPE\n");
	    continue;
	}
	sts = pmConvScale(type, &in, &iu, &out, &ou);
	if (sts < 0) {
	    printf("err %d left %016" PRIx64 "\n", sts, out.ull);
	    continue;
	}
	switch (type) {
	case PM_TYPE_32:
	    printf("%d\n", out.l);
	    break;
	case PM_TYPE_U32:
	    printf("%u\n", out.ul);
	    break;
	case PM_TYPE_64:
	    printf("%" PRId64 "\n", out.ll);
	    break;
	case PM_TYPE_U64:
	    printf("%" PRIu64 "\n", out.ull);
	    break;
	case PM_TYPE_FLOAT: {
	    uint32_t b;
	    memcpy(&b, &out.f, 4);
	    printf("f%08x\n", b);
	    break;
	}
	case PM_TYPE_DOUBLE: {
	    uint64_t b;
	    memcpy(&b, &out.d, 8);
	    printf("d%016" PRIx64 "\n", b);
	    break;
	}
	default:
	    printf("ok left %016" PRIx64 "\n", out.ull);
	}
    }
    return 0;
}
