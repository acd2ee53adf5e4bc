/*
 * Reference for pmapi.StringValue: each input line is "TYPE TEXT" (TEXT
 * may be empty or hold blanks) and is echoed with __pmStringValue's
 * status and the value it made.
 */
#include <pcp/pmapi.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int __pmStringValue(const char *, pmAtomValue *, int);

int
main(void)
{
    static char line[4096];

    while (fgets(line, sizeof(line), stdin) != NULL) {
	int type, sts, off = 0;
	pmAtomValue a;

	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "%d %n", &type, &off) != 1) {
	    fprintf(stderr, "bad input: %s\n", line);
	    return 1;
	}
	/* the text starts after the type and one blank */
	char *text = strchr(line, ' ');
	text = text ? text + 1 : line + strlen(line);
	memset(&a, 0, sizeof(a));
	errno = 0;
	sts = __pmStringValue(text, &a, type);
	printf("%s -> %d", line, sts);
	if (sts == 0) {
	    switch (type) {
	    case PM_TYPE_32: printf(" %d", a.l); break;
	    case PM_TYPE_U32: printf(" %u", a.ul); break;
	    case PM_TYPE_64: printf(" %" PRId64, a.ll); break;
	    case PM_TYPE_U64: printf(" %" PRIu64, a.ull); break;
	    case PM_TYPE_FLOAT: printf(" %.9g", (double)a.f); break;
	    case PM_TYPE_DOUBLE: printf(" %.17g", a.d); break;
	    case PM_TYPE_STRING: printf(" [%s]", a.cp); free(a.cp); break;
	    }
	}
	putchar('\n');
    }
    return 0;
}
