/*
 * Reference for pcp.FormatValue: each input line is
 *   "I TYPE WIDTH LVAL" (a value in the value set, LVAL in hex) or
 *   "D TYPE WIDTH VTYPE HEX" (a value block holding the bytes HEX, "-" for none)
 * and is echoed with pmPrintValue's output between brackets.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(void)
{
    static char line[1 << 16];

    while (fgets(line, sizeof(line), stdin) != NULL) {
	char kind;
	int type, width, vtype;
	unsigned int lval;
	char hex[1 << 15];
	pmValue v;

	line[strcspn(line, "\n")] = '\0';
	memset(&v, 0, sizeof(v));
	if (line[0] == 'I' && sscanf(line, "%c %d %d %x", &kind, &type, &width, &lval) == 4) {
	    v.value.lval = (int)lval;
	    printf("%s -> [", line);
	    fflush(stdout);
	    pmPrintValue(stdout, PM_VAL_INSITU, type, &v, width);
	} else if (line[0] == 'D' && sscanf(line, "%c %d %d %d %s", &kind, &type, &width, &vtype, hex) == 5) {
	    int n = strcmp(hex, "-") == 0 ? 0 : (int)strlen(hex) / 2;
	    pmValueBlock *vb = calloc(1, PM_VAL_HDR_SIZE + n + 8);
	    int i;
	    for (i = 0; i < n; i++) {
		unsigned int b;
		sscanf(hex + 2 * i, "%2x", &b);
		vb->vbuf[i] = (char)b;
	    }
	    vb->vtype = vtype;
	    vb->vlen = PM_VAL_HDR_SIZE + n;
	    v.value.pval = vb;
	    printf("%s -> [", line);
	    fflush(stdout);
	    pmPrintValue(stdout, PM_VAL_DPTR, type, &v, width);
	    free(vb);
	} else {
	    fprintf(stderr, "bad input: %s\n", line);
	    return 1;
	}
	printf("]\n");
    }
    return 0;
}
