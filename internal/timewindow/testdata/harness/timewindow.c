/*
 * timewindow: libpcp's pmParseHighResTimeWindow on many inputs, with the
 * present fixed, for gopcp's time window tests.
 *
 * Each input line holds tab-separated fields:
 *   zone  now  first.sec  first.nsec  last.sec  last.nsec  S  T  A  O
 * where zone is given to pmNewZone, now is the time the clock reads (in
 * seconds), and each of S T A O is "-" for an absent switch or "=" and
 * its argument.  Arguments are written with \t, \n, \\ and \xHH escapes.
 * Each output line is
 *   sts start.sec start.nsec end.sec end.nsec offset.sec offset.nsec msg
 * with the message escaped the same way ("" when there is none); the
 * times are 0 when sts is -1.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static time_t fake_now;

/*
 * The executable's clock_gettime takes the place of the C library's for
 * libpcp too, so dates libpcp reads from the present use fake_now.
 */
int
clock_gettime(clockid_t id, struct timespec *ts)
{
    (void)id;
    ts->tv_sec = fake_now;
    ts->tv_nsec = 0;
    return 0;
}

static void
unescape(char *s)
{
    char *d = s;
    while (*s) {
	if (*s == '\\' && s[1]) {
	    s++;
	    switch (*s) {
	    case 't': *d++ = '\t'; s++; break;
	    case 'n': *d++ = '\n'; s++; break;
	    case 'x': {
		char hex[3] = { s[1], s[2], 0 };
		*d++ = (char)strtol(hex, NULL, 16);
		s += 3;
		break;
	    }
	    default: *d++ = *s++; break;
	    }
	} else
	    *d++ = *s++;
    }
    *d = '\0';
}

static void
escape(const char *s)
{
    for (; *s; s++) {
	unsigned char c = (unsigned char)*s;
	if (c == '\\')
	    fputs("\\\\", stdout);
	else if (c == '\n')
	    fputs("\\n", stdout);
	else if (c == '\t')
	    fputs("\\t", stdout);
	else if (c < 0x20 || c >= 0x7f)
	    printf("\\x%02x", c);
	else
	    putchar(c);
    }
}

int
main(void)
{
    static char line[1 << 16];
    char *field[10];

    while (fgets(line, sizeof(line), stdin) != NULL) {
	char *p = line;
	int n;
	size_t len = strlen(line);
	if (len > 0 && line[len-1] == '\n')
	    line[len-1] = '\0';
	for (n = 0; n < 10; n++) {
	    field[n] = p;
	    p = strchr(p, '\t');
	    if (p == NULL)
		break;
	    *p++ = '\0';
	}
	if (n != 9) {
	    fprintf(stderr, "timewindow: bad line\n");
	    return 1;
	}

	char *args[4];
	for (int i = 0; i < 4; i++) {
	    char *f = field[6 + i];
	    if (f[0] == '=') {
		unescape(f + 1);
		args[i] = f + 1;
	    } else
		args[i] = NULL;
	}
	/*
	 * glibc's mktime starts from the zone offset it found last time,
	 * which decides between the two readings of a local time repeated
	 * when summer time ends.  A call in UTC first puts that back to
	 * where a new process (a PCP tool) starts.
	 */
	{
	    struct tm utc;
	    memset(&utc, 0, sizeof(utc));
	    utc.tm_year = 100;
	    utc.tm_mday = 1;
	    setenv("TZ", "UTC", 1);
	    tzset();
	    mktime(&utc);
	}
	char *zone = field[0];
	unescape(zone);
	if (pmNewZone(zone) < 0) {
	    fprintf(stderr, "timewindow: bad zone %s\n", zone);
	    return 1;
	}
	fake_now = (time_t)strtoll(field[1], NULL, 10);
	struct timespec first, last, start, end, offset;
	first.tv_sec = strtoll(field[2], NULL, 10);
	first.tv_nsec = strtol(field[3], NULL, 10);
	last.tv_sec = strtoll(field[4], NULL, 10);
	last.tv_nsec = strtol(field[5], NULL, 10);
	char *msg = NULL;
	memset(&start, 0, sizeof(start));
	memset(&end, 0, sizeof(end));
	memset(&offset, 0, sizeof(offset));
	int sts = pmParseHighResTimeWindow(args[0], args[1], args[2], args[3],
			&first, &last, &start, &end, &offset, &msg);
	if (sts < 0) {
	    memset(&start, 0, sizeof(start));
	    memset(&end, 0, sizeof(end));
	    memset(&offset, 0, sizeof(offset));
	}
	printf("%d %lld %ld %lld %ld %lld %ld ", sts,
		(long long)start.tv_sec, start.tv_nsec,
		(long long)end.tv_sec, end.tv_nsec,
		(long long)offset.tv_sec, offset.tv_nsec);
	if (msg != NULL) {
	    escape(msg);
	    free(msg);
	}
	putchar('\n');
	fflush(stdout);
    }
    return 0;
}
