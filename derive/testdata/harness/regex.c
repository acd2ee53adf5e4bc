/*
 * regex: reads "pattern<TAB>string" lines and prints whether glibc's
 * regexec matches the string with the pattern compiled as libpcp's
 * matchinst() compiles it (REG_EXTENDED|REG_NOSUB): "1", "0", or
 * "error: " and regerror's text.
 */
#include <regex.h>
#include <stdio.h>
#include <string.h>

int
main(void)
{
    char	line[4096];

    while (fgets(line, sizeof(line), stdin) != NULL) {
	regex_t	re;
	char	*str;
	int	sts;
	size_t	len = strlen(line);
	if (len > 0 && line[len-1] == '\n')
	    line[--len] = '\0';
	if ((str = strchr(line, '\t')) == NULL)
	    continue;
	*str++ = '\0';
	if ((sts = regcomp(&re, line, REG_EXTENDED|REG_NOSUB)) != 0) {
	    char	msg[128];
	    regerror(sts, &re, msg, sizeof(msg));
	    printf("error: %s\n", msg);
	    continue;
	}
	printf("%d\n", regexec(&re, str, 0, NULL, 0) == 0);
	regfree(&re);
    }
    return 0;
}
