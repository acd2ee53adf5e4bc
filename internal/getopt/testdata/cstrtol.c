/* Prints glibc's strtol for each line of standard input and each base
 * given as an argument: base, value, end offset, ERANGE (1 or 0), and
 * atoi's value, tab-separated, the input quoted by %s last. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char line[4096];
    while (fgets(line, sizeof line, stdin) != NULL) {
	line[strcspn(line, "\n")] = '\0';
	for (int a = 1; a < argc; a++) {
	    int base = atoi(argv[a]);
	    char *end;
	    errno = 0;
	    long n = strtol(line, &end, base);
	    int range = errno == ERANGE;
	    int i = atoi(line);
	    printf("%d\t%ld\t%ld\t%d\t%d\t[%s]\n", base, n, (long)(end - line), range, i, line);
	}
    }
    return 0;
}
