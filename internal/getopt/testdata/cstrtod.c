/* Prints glibc's strtod for each line of standard input: the double's
 * bits in hex (or "nan" and its sign for a NaN), the end offset, and the
 * input quoted last, tab-separated. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    char line[4096];
    while (fgets(line, sizeof line, stdin) != NULL) {
	line[strcspn(line, "\n")] = '\0';
	char *end;
	double v = strtod(line, &end);
	if (isnan(v))
	    printf("%snan", signbit(v) ? "-" : "+");
	else {
	    unsigned long long bits;
	    memcpy(&bits, &v, sizeof bits);
	    printf("%016llx", bits);
	}
	printf("\t%ld\t[%s]\n", (long)(end - line), line);
    }
    return 0;
}
