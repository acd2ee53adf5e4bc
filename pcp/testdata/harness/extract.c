/*
 * Reference for pcp.ExtractValue: each input line describes one pmValue,
 *
 *   valfmt itype lval vtype data
 *
 * where data is "-" (no value block), "n4:HEX" or "n8:HEX" (a 32- or
 * 64-bit number stored in host order, as libpcp holds decoded values), or
 * "x:HEX" (raw bytes). The line is echoed, then pmExtractValue is asked for
 * every output type and its answer printed, one line each.
 */
#include <pcp/pmapi.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int otypes[] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 255};

static int
hexbytes(const char *s, unsigned char *out, int max)
{
    int n = 0;
    unsigned int b;
    while (s[0] && s[1] && n < max && sscanf(s, "%2x", &b) == 1) {
	out[n++] = (unsigned char)b;
	s += 2;
    }
    return n;
}

static void
hexprint(const unsigned char *p, int n)
{
    int i;
    if (n == 0)
	printf("-");
    for (i = 0; i < n; i++)
	printf("%02x", p[i]);
}

int
main(void)
{
    char line[1 << 16];
    static unsigned char data[1 << 15];

    while (fgets(line, sizeof(line), stdin) != NULL) {
	int valfmt, itype, vtype, n = 0, i;
	long lval;
	char dspec[1 << 16];
	pmValueBlock *vb = NULL;
	pmValue v;

	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "%d %d %ld %d %s", &valfmt, &itype, &lval, &vtype, dspec) != 5) {
	    fprintf(stderr, "bad input: %s\n", line);
	    return 1;
	}
	if (strncmp(dspec, "n4:", 3) == 0) {
	    uint32_t u = (uint32_t)strtoul(dspec + 3, NULL, 16);
	    memcpy(data, &u, 4);
	    n = 4;
	}
	else if (strncmp(dspec, "n8:", 3) == 0) {
	    uint64_t u = strtoull(dspec + 3, NULL, 16);
	    memcpy(data, &u, 8);
	    n = 8;
	}
	else if (strncmp(dspec, "x:", 2) == 0)
	    n = hexbytes(dspec + 2, data, sizeof(data));

	memset(&v, 0, sizeof(v));
	v.inst = 0;
	if (valfmt == PM_VAL_INSITU)
	    v.value.lval = (int)lval;
	else {
	    vb = calloc(1, PM_VAL_HDR_SIZE + n + 8);
	    vb->vtype = vtype;
	    vb->vlen = PM_VAL_HDR_SIZE + n;
	    memcpy(vb->vbuf, data, n);
	    v.value.pval = vb;
	}

	for (i = 0; i < (int)(sizeof(otypes) / sizeof(otypes[0])); i++) {
	    pmAtomValue a;
	    int ot = otypes[i];
	    int sts;

	    memset(&a, 0xa5, sizeof(a));
	    sts = pmExtractValue(valfmt, &v, itype, &a, ot);
	    printf("%s -> %d: ", line, ot);
	    if (sts < 0) {
		printf("err %d left %016" PRIx64 "\n", sts, a.ull);
		continue;
	    }
	    switch (ot) {
	    case PM_TYPE_32:
		printf("%d\n", a.l);
		break;
	    case PM_TYPE_U32:
		printf("%u\n", a.ul);
		break;
	    case PM_TYPE_64:
		printf("%" PRId64 "\n", a.ll);
		break;
	    case PM_TYPE_U64:
		printf("%" PRIu64 "\n", a.ull);
		break;
	    case PM_TYPE_FLOAT: {
		uint32_t b;
		memcpy(&b, &a.f, 4);
		printf("f%08x\n", b);
		break;
	    }
	    case PM_TYPE_DOUBLE: {
		uint64_t b;
		memcpy(&b, &a.d, 8);
		printf("d%016" PRIx64 "\n", b);
		break;
	    }
	    case PM_TYPE_STRING:
		printf("s:");
		hexprint((unsigned char *)a.cp, (int)strlen(a.cp));
		printf("\n");
		free(a.cp);
		break;
	    case PM_TYPE_AGGREGATE:
		printf("vb %d %d:", a.vbp->vtype, a.vbp->vlen);
		hexprint((unsigned char *)a.vbp->vbuf, a.vbp->vlen - PM_VAL_HDR_SIZE);
		printf("\n");
		free(a.vbp);
		break;
	    default:
		printf("ok left %016" PRIx64 "\n", a.ull);
	    }
	}
	free(vb);
    }
    return 0;
}
