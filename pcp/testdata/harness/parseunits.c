/*
 * Reference for pcp.ParseUnits.  Each input line is one string to parse,
 * with backslash escapes (\\ \t \n \v \f \r \xHH) so that any byte can be
 * given.  The line is echoed, then a TAB and one of
 *	ok<TAB>dimSpace dimTime dimCount scaleSpace scaleTime scaleCount<TAB>mult<TAB>pmUnitsStr
 *	err<TAB>status<TAB>errmsg
 *	abort
 * where mult is printed with %.17g (any NaN as "nan").
 */
#include <pcp/pmapi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int
hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void
unescape(const char *in, char *out)
{
    while (*in) {
	if (*in != '\\') {
	    *out++ = *in++;
	    continue;
	}
	in++;
	switch (*in) {
	case 't': *out++ = '\t'; in++; break;
	case 'n': *out++ = '\n'; in++; break;
	case 'v': *out++ = '\v'; in++; break;
	case 'f': *out++ = '\f'; in++; break;
	case 'r': *out++ = '\r'; in++; break;
	case 'x':
	    if (hexval(in[1]) >= 0 && hexval(in[2]) >= 0) {
		*out++ = hexval(in[1]) * 16 + hexval(in[2]);
		in += 3;
		break;
	    }
	    /* FALLTHROUGH */
	default:
	    *out++ = '\\';
	    if (*in) *out++ = *in++;
	    break;
	}
    }
    *out = '\0';
}

static void
parse(FILE *f, const char *s)
{
    pmUnits	u;
    double	mult;
    char	*errmsg = NULL;
    char	ubuf[64];
    int		sts;

    sts = pmParseUnitsStr(s, &u, &mult, &errmsg);
    if (sts < 0) {
	fprintf(f, "err\t%d\t%s\n", sts, errmsg ? errmsg : "");
	return;
    }
    fprintf(f, "ok\t%d %d %d %u %u %d\t", u.dimSpace, u.dimTime, u.dimCount,
	    u.scaleSpace, u.scaleTime, u.scaleCount);
    if (isnan(mult))
	fprintf(f, "nan");
    else
	fprintf(f, "%.17g", mult);
    fprintf(f, "\t%s\n", pmUnitsStr_r(&u, ubuf, sizeof(ubuf)));
}

/*
 * The worker: parses each line it is given and answers with one line.
 */
static void
worker(FILE *in, FILE *out)
{
    static char	line[65536];
    static char	raw[65536];

    /* the assertion message is not part of the reference */
    freopen("/dev/null", "w", stderr);
    while (fgets(line, sizeof(line), in) != NULL) {
	line[strcspn(line, "\n")] = '\0';
	unescape(line, raw);
	parse(out, raw);
	fflush(out);
    }
    _exit(0);
}

static pid_t	pid;
static FILE	*to_worker;
static FILE	*from_worker;

static void
start_worker(void)
{
    int		in[2], out[2];

    if (pipe(in) < 0 || pipe(out) < 0) {
	perror("pipe");
	exit(1);
    }
    fflush(stdout);
    if ((pid = fork()) < 0) {
	perror("fork");
	exit(1);
    }
    if (pid == 0) {
	/* fresh streams: stdin's buffer holds the parent's read-ahead */
	close(in[1]);
	close(out[0]);
	worker(fdopen(in[0], "r"), fdopen(out[1], "w"));
    }
    close(in[0]);
    close(out[1]);
    to_worker = fdopen(in[1], "w");
    from_worker = fdopen(out[0], "r");
}

static void
stop_worker(void)
{
    int		status;

    fclose(to_worker);
    fclose(from_worker);
    waitpid(pid, &status, 0);
}

/*
 * Strings go to a worker process, because libpcp asserts (and so aborts)
 * on some inputs and that outcome is part of the reference: when the
 * worker dies without answering, the answer is "abort" and a new worker
 * takes the next string.
 */
int
main(void)
{
    static char	line[65536];
    static char	answer[65536];

    signal(SIGPIPE, SIG_IGN);
    start_worker();
    while (fgets(line, sizeof(line), stdin) != NULL) {
	line[strcspn(line, "\n")] = '\0';
	fprintf(to_worker, "%s\n", line);
	fflush(to_worker);
	printf("%s\t", line);
	if (fgets(answer, sizeof(answer), from_worker) != NULL) {
	    fputs(answer, stdout);
	    continue;
	}
	printf("abort\n");
	stop_worker();
	start_worker();
    }
    stop_worker();
    return 0;
}
