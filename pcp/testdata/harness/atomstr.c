/*
 * Reference for pcp.AtomStr: each input line is "type value", the value
 * being decimal for the integer types, "f" or "d" and the hex bits for
 * float and double, "x:HEX" for a string's bytes, and "vb VTYPE x:HEX" or
 * "null" for a value block (aggregates and event arrays). The line is
 * echoed with pmAtomStr's text, bytes outside printable ASCII and the
 * backslash written as \xHH.
 */
#include <pcp/pmapi.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int
main(void)
{
    static char line[1 << 16];

    while (fgets(line, sizeof(line), stdin) != NULL) {
	int type, vtype, n;
	char val[1 << 16];
	char buf[80];
	unsigned char *p;
	static unsigned char data[1 << 15];
	pmAtomValue a;
	pmValueBlock *vb = NULL;
	char *str = NULL;

	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "%d %s", &type, val) != 2) {
	    fprintf(stderr, "bad input: %s\n", line);
	    return 1;
	}
	memset(&a, 0, sizeof(a));
	if (strcmp(val, "null") == 0)
	    ;
	else if (strcmp(val, "vb") == 0) {
	    char hex[1 << 16];
	    if (sscanf(line, "%*d vb %d x:%s", &vtype, hex) != 2)
		hex[0] = '\0';
	    n = hexbytes(hex, data, sizeof(data));
	    /* zeroed slack: an event array shorter than its header reads 0 */
	    vb = calloc(1, PM_VAL_HDR_SIZE + n + 16);
	    vb->vtype = vtype;
	    vb->vlen = PM_VAL_HDR_SIZE + n;
	    memcpy(vb->vbuf, data, n);
	    a.vbp = vb;
	}
	else if (strncmp(val, "x:", 2) == 0) {
	    n = hexbytes(val + 2, data, sizeof(data));
	    str = calloc(1, n + 1);
	    memcpy(str, data, n);
	    a.cp = str;
	}
	else if (val[0] == 'f') {
	    uint32_t b = (uint32_t)strtoul(val + 1, NULL, 16);
	    memcpy(&a.f, &b, 4);
	}
	else if (val[0] == 'd') {
	    uint64_t b = strtoull(val + 1, NULL, 16);
	    memcpy(&a.d, &b, 8);
	}
	else if (val[0] == '-')
	    a.ll = strtoll(val, NULL, 10);
	else
	    a.ull = strtoull(val, NULL, 10);
	if (type == PM_TYPE_32 || type == PM_TYPE_U32) {
	    /* the 32-bit members are the low half on this little-endian host */
	    uint32_t lo = (uint32_t)a.ull;
	    a.ull = 0;
	    memcpy(&a.ul, &lo, 4);
	}

	pmAtomStr_r(&a, type, buf, sizeof(buf));
	printf("%s -> ", line);
	for (p = (unsigned char *)buf; *p; p++) {
	    if (*p >= 0x20 && *p < 0x7f && *p != '\\')
		putchar(*p);
	    else
		printf("\\x%02x", *p);
	}
	putchar('\n');
	free(vb);
	free(str);
    }
    return 0;
}
