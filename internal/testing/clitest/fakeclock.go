package clitest

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// fakeClockSource is a preload library that makes the C library's
// real-time clock read $GOPCP_FAKE_NOW (seconds), so that PCP's tools
// read dates relative to the present ("now", "yesterday", an empty -S)
// at a fixed time.
const fakeClockSource = `#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

int
clock_gettime(clockid_t id, struct timespec *ts)
{
    const char *now = getenv("GOPCP_FAKE_NOW");
    if (id != CLOCK_REALTIME || now == NULL)
	return (int)syscall(SYS_clock_gettime, id, ts);
    ts->tv_sec = (time_t)strtoll(now, NULL, 10);
    ts->tv_nsec = 0;
    return 0;
}
`

// FakeClock fixes the present at now (seconds since the epoch) for both
// sides of a comparison: it sets *clock (cli.Now; taken by pointer, as
// packages below internal/cli use clitest too) until t ends, and returns
// the environment that makes PCP's tool read the same time (a preload
// library built for t). Tests using it must not run in parallel.
func FakeClock(t testing.TB, now int64, clock *func() time.Time) []string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "fakeclock.c")
	if err := os.WriteFile(src, []byte(fakeClockSource), 0o644); err != nil {
		t.Fatal(err)
	}
	shim := pcptest.HarnessWith(t, src, "-shared", "-fPIC", "-O1")
	saved := *clock
	*clock = func() time.Time { return time.Unix(now, 0) }
	t.Cleanup(func() { *clock = saved })
	return []string{"LD_PRELOAD=" + shim, "GOPCP_FAKE_NOW=" + strconv.FormatInt(now, 10)}
}
