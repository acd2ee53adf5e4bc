/*
 * Reference for the label-set decoders of pdu and archive: each input line
 * is "pdu HEX" (a whole LABEL PDU in network byte order), or "v2 HEX" or
 * "v3 HEX" (the body of an archive label record, after its length and
 * type words, of TYPE_LABEL_V2 or TYPE_LABEL). libpcp's own decoder,
 * __pmDecodeLabel or __pmLogLoadLabelSet, is called and the line answered
 * with "STATUS" and, when it succeeds, each set's "NLABELS/JSONLEN".
 */
#include <pcp/pmapi.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpcp's internal interfaces (libpcp.h is not installed) */
typedef struct {
    int64_t	sec;
    int32_t	nsec;
} stamp_t;
extern int __pmDecodeLabel(int32_t *, int *, int *, pmLabelSet **, int *);
extern int __pmLogLoadLabelSet(char *, int, int, stamp_t *, int *, int *,
				int *, pmLabelSet **);

static int
unhex(const char *s, unsigned char *out, size_t max)
{
    size_t n = 0;

    while (s[0] && s[1] && n < max) {
	unsigned int b;
	if (sscanf(s, "%2x", &b) != 1)
	    return -1;
	out[n++] = b;
	s += 2;
    }
    return n;
}

int
main(void)
{
    static char line[1 << 22];
    static int32_t buf[1 << 20];	/* aligned as a PDU buffer is */

    while (fgets(line, sizeof(line), stdin) != NULL) {
	char kind[8];
	int off = 0, n, sts, ident, type, nsets = 0, i;
	pmLabelSet *sets = NULL;
	stamp_t stamp;

	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "%7s %n", kind, &off) != 1 ||
	    (n = unhex(line + off, (unsigned char *)buf, sizeof(buf))) < 0) {
	    fprintf(stderr, "bad input: %.40s\n", line);
	    return 1;
	}
	if (strcmp(kind, "pdu") == 0) {
	    /* __pmGetPDU leaves the header in host order */
	    for (i = 0; i < 3; i++)
		buf[i] = ntohl(buf[i]);
	    sts = __pmDecodeLabel(buf, &ident, &type, &sets, &nsets);
	} else {
	    int rtype = strcmp(kind, "v2") == 0 ? 3 : 7;
	    sts = __pmLogLoadLabelSet((char *)buf, n, rtype, &stamp, &type,
					&ident, &nsets, &sets);
	}
	printf("%d", sts);
	if (sts >= 0)
	    for (i = 0; i < nsets; i++)
		printf(" %d/%d", sets[i].nlabels, sets[i].jsonlen);
	putchar('\n');
	/* the sets are not freed: pmFreeLabelSets frees labels that a
	   set with an error count never allocated in 6.0.3's decoder */
    }
    return 0;
}
