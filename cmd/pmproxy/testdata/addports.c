/*
 * addports: libpcp's reading of a pmproxy -p / PMPROXY_PORT list, for
 * the tests that compare ours with it. Prints __pmServerAddPorts' count
 * (negative when refused), then each request port libpcp sets up from
 * the list as ADDRESS:PORT.
 */
#include <stdio.h>
#include <pcp/pmapi.h>

extern int __pmServerAddPorts(const char *);
extern int __pmServerSetupRequestPorts(void);
extern int __pmServerGetRequestPort(int, const char **, int *);

int
main(int argc, char **argv)
{
    const char	*addr;
    int		i, port, n;

    if (argc != 2)
	return 2;
    n = __pmServerAddPorts(argv[1]);
    printf("%d", n);
    if (n > 0 && __pmServerSetupRequestPorts() >= 0)
	for (i = 0; __pmServerGetRequestPort(i, &addr, &port) == 0; i++)
	    printf(" %s:%d", addr ? addr : "-", port);
    printf("\n");
    return 0;
}
