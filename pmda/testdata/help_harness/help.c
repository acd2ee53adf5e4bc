/*
 * Prints every text of a help database as libpcp_pmda's pmdaOpenHelp and
 * pmdaGetHelp/pmdaGetInDomHelp find them, one line per key of the index:
 * "KEY<TAB>ONELINE<TAB>HELP" in hex key and C-escaped texts, so that a Go
 * test can compare with pmda.OpenHelp.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <stdio.h>
#include <stdint.h>

static void
put(const char *s)
{
    putchar('\t');
    if (s == NULL) {
	fputs("(none)", stdout);
	return;
    }
    for (; *s; s++) {
	if (*s == '\n') fputs("\\n", stdout);
	else if (*s == '\t') fputs("\\t", stdout);
	else if (*s == '\\') fputs("\\\\", stdout);
	else putchar(*s);
    }
}

int
main(int argc, char **argv)
{
    char path[4096];
    uint32_t rec[3];
    FILE *f;
    int h;

    if (argc != 2)
	return 2;
    if ((h = pmdaOpenHelp(argv[1])) < 0) {
	printf("error %d\n", h);
	return 0;
    }
    snprintf(path, sizeof(path), "%s.dir", argv[1]);
    if ((f = fopen(path, "r")) == NULL || fread(rec, sizeof(rec), 1, f) != 1)
	return 1;
    while (fread(rec, sizeof(rec), 1, f) == 1) {
	printf("%08x", rec[0]);
	if (rec[0] & 0x80000000u) {
	    put(pmdaGetInDomHelp(h, rec[0] & 0x7fffffffu, PM_TEXT_ONELINE));
	    put(pmdaGetInDomHelp(h, rec[0] & 0x7fffffffu, PM_TEXT_HELP));
	} else {
	    put(pmdaGetHelp(h, rec[0], PM_TEXT_ONELINE));
	    put(pmdaGetHelp(h, rec[0], PM_TEXT_HELP));
	}
	putchar('\n');
    }
    return 0;
}
