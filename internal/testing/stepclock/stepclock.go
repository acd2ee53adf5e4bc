// Package stepclock gives daemons under test a real-time clock the test
// sets and an interval timer the test fires: a preload library makes the
// C library's clock_gettime(CLOCK_REALTIME) read a file the test writes,
// and setitimer(ITIMER_REAL) arm nothing but a note of the process and of
// how many times it was called. The test then moves the clock and sends
// SIGALRM itself, and knows the handler has run when the count grows
// (PCP's libpcp rearms its timer at the end of every SIGALRM it handles).
// A program of our own takes part by writing the same note (Note) after
// each interval it closes on SIGALRM.
package stepclock

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// Environment variables the preload library reads: the clock file
// ("SECONDS NANOSECONDS") and the note file it writes ("PID COUNT").
const (
	EnvClock = "GOPCP_STEPCLOCK"
	EnvNote  = "GOPCP_STEPCLOCK_NOTE"
)

// shimSource uses only async-signal-safe calls: libpcp reads the clock
// and rearms its timer inside its SIGALRM handler.
const shimSource = `#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/time.h>

static long long
readnum(const char **p)
{
    long long n = 0;
    while (**p == ' ')
	(*p)++;
    while (**p >= '0' && **p <= '9')
	n = n*10 + (*(*p)++ - '0');
    return n;
}

int
clock_gettime(clockid_t id, struct timespec *ts)
{
    const char *path = getenv("` + EnvClock + `");
    char buf[64];
    const char *p = buf;
    int fd, n;
    if (id != CLOCK_REALTIME || path == NULL)
	return (int)syscall(SYS_clock_gettime, id, ts);
    if ((fd = open(path, O_RDONLY)) < 0)
	return (int)syscall(SYS_clock_gettime, id, ts);
    n = (int)read(fd, buf, sizeof(buf)-1);
    close(fd);
    buf[n < 0 ? 0 : n] = '\0';
    ts->tv_sec = (time_t)readnum(&p);
    ts->tv_nsec = (long)readnum(&p);
    return 0;
}

int
gettimeofday(struct timeval *tv, void *tz)
{
    struct timespec ts;
    (void)tz;
    clock_gettime(CLOCK_REALTIME, &ts);
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
    return 0;
}

static int
putnum(char *b, long long n)
{
    char d[24];
    int i = 0, j = 0;
    do { d[i++] = '0' + n%10; n /= 10; } while (n > 0);
    while (i > 0)
	b[j++] = d[--i];
    return j;
}

static long long armed;

int
setitimer(__itimer_which_t which, const struct itimerval *nv, struct itimerval *ov)
{
    const char *path = getenv("` + EnvNote + `");
    char tmp[4096], buf[64];
    int fd, n = 0, len;
    if (which != ITIMER_REAL || path == NULL)
	return (int)syscall(SYS_setitimer, which, nv, ov);
    if (ov != NULL) {
	ov->it_value.tv_sec = ov->it_value.tv_usec = 0;
	ov->it_interval = ov->it_value;
    }
    armed++;
    n += putnum(buf+n, (long long)getpid());
    buf[n++] = ' ';
    n += putnum(buf+n, armed);
    buf[n++] = '\n';
    len = 0;
    while (path[len] != '\0' && len < (int)sizeof(tmp)-5) {
	tmp[len] = path[len];
	len++;
    }
    tmp[len++] = '.'; tmp[len++] = 't'; tmp[len++] = 'm'; tmp[len++] = 'p'; tmp[len] = '\0';
    if ((fd = open(tmp, O_WRONLY|O_CREAT|O_TRUNC, 0644)) < 0)
	return 0;
    if (write(fd, buf, n) != n) {
	close(fd);
	return 0;
    }
    close(fd);
    rename(tmp, path);
    return 0;
}
`

// Clock is the present for the processes started with its environment.
type Clock struct {
	t    testing.TB
	dir  string
	shim string
	now  time.Time
}

// New builds the preload library for t and sets the clock to start.
func New(t testing.TB, start time.Time) *Clock {
	t.Helper()
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	src := filepath.Join(dir, "stepclock.c")
	if err := os.WriteFile(src, []byte(shimSource), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &Clock{t: t, dir: dir, shim: pcptest.HarnessWith(t, src, "-shared", "-fPIC", "-O1")}
	c.Set(start)
	return c
}

// Now is the clock's present.
func (c *Clock) Now() time.Time { return c.now }

// Set moves the clock to now, atomically for its readers.
func (c *Clock) Set(now time.Time) {
	c.t.Helper()
	c.now = now
	if err := writeAtomic(filepath.Join(c.dir, "clock"), fmt.Sprintf("%d %d\n", now.Unix(), now.Nanosecond())); err != nil {
		c.t.Fatal(err)
	}
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) { c.Set(c.now.Add(d)) }

// NotePath is the note file of the process called name.
func (c *Clock) NotePath(name string) string { return filepath.Join(c.dir, name+".note") }

// Env is the environment that gives a process (called name, for its note)
// this clock and timer: name each process differently.
func (c *Clock) Env(name string) []string {
	return []string{
		"LD_PRELOAD=" + c.shim,
		EnvClock + "=" + filepath.Join(c.dir, "clock"),
		EnvNote + "=" + c.NotePath(name),
	}
}

// Note writes path's note for a process of our own: its pid and count.
func Note(path string, count int64) error {
	return writeAtomic(path, fmt.Sprintf("%d %d\n", os.Getpid(), count))
}

// note reads the process's note: pid and count, ok false before any.
func (c *Clock) note(name string) (pid int, count int64, ok bool) {
	b, err := os.ReadFile(c.NotePath(name))
	if err != nil {
		return 0, 0, false
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, 0, false
	}
	p, err1 := strconv.Atoi(f[0])
	n, err2 := strconv.ParseInt(f[1], 10, 64)
	return p, n, err1 == nil && err2 == nil && p > 0
}

// Ready waits until the process called name has written its first note,
// that is it has armed its timer.
func (c *Clock) Ready(name string) {
	c.t.Helper()
	c.wait(name, 0)
}

// wait polls name's note until its count exceeds after; it returns the
// pid. The bound is generous: the machine may be loaded.
func (c *Clock) wait(name string, after int64) int {
	c.t.Helper()
	for i := 0; i < 1200; i++ {
		if pid, n, ok := c.note(name); ok && n > after {
			return pid
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.t.Fatalf("stepclock: %s never noted its timer (after %d)", name, after)
	return 0
}

// Alarm sends SIGALRM to the process called name and waits until it has
// handled it (its note's count grew).
func (c *Clock) Alarm(name string) {
	c.t.Helper()
	pid, n, ok := c.note(name)
	if !ok {
		c.t.Fatalf("stepclock: %s has not armed its timer", name)
	}
	if err := syscall.Kill(pid, syscall.SIGALRM); err != nil {
		c.t.Fatalf("stepclock: SIGALRM to %s (pid %d): %v", name, pid, err)
	}
	c.wait(name, n)
}

func writeAtomic(path, s string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(s), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
