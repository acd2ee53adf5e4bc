/*
 * numerichost: what glibc's getaddrinfo makes of each argument as a
 * numeric IPv4 host, one line each: the address, or "-" when it is not
 * one (a name getaddrinfo would look up).
 */
#include <stdio.h>
#include <string.h>
#include <netdb.h>
#include <arpa/inet.h>

int
main(int argc, char **argv)
{
    struct addrinfo	hints, *res;
    char		buf[INET_ADDRSTRLEN];
    int			i;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_INET;
    hints.ai_flags = AI_NUMERICHOST;
    for (i = 1; i < argc; i++) {
	if (getaddrinfo(argv[i], NULL, &hints, &res) != 0) {
	    printf("-\n");
	    continue;
	}
	inet_ntop(AF_INET, &((struct sockaddr_in *)res->ai_addr)->sin_addr, buf, sizeof(buf));
	printf("%s\n", buf);
	freeaddrinfo(res);
    }
    return 0;
}
