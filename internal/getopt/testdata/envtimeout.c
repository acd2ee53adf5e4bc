/* For each line of standard input, a child process with that line as
 * PMCD_CONNECT_TIMEOUT and PMCD_REQUEST_TIMEOUT prints libpcp's
 * __pmConnectTimeout and __pmRequestTimeout (after any warnings libpcp
 * writes to standard error, sent to standard output here), then the
 * input quoted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern double __pmConnectTimeout(void);
extern double __pmRequestTimeout(void);

int main(void)
{
    char line[4096];
    while (fgets(line, sizeof line, stdin) != NULL) {
	line[strcspn(line, "\n")] = '\0';
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
	    return 1;
	if (pid == 0) {
	    dup2(1, 2);
	    setenv("PMCD_CONNECT_TIMEOUT", line, 1);
	    setenv("PMCD_REQUEST_TIMEOUT", line, 1);
	    double c = __pmConnectTimeout();
	    double r = __pmRequestTimeout();
	    printf("connect=%.17g request=%.17g\t[%s]\n", c, r, line);
	    fflush(stdout);
	    _exit(0);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
	    return 1;
    }
    return 0;
}
