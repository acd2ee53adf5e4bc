package pmcd

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestFindLoggers reads pmlogger port files as libpcp's
// __pmLogFindLocalPorts does: live pids and "primary" only, port then
// pmcd host then archive, a line each.
func TestFindLoggers(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("PCP_TMP_DIR", tmp)
	dir := filepath.Join(tmp, "pmlogger")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	me := strconv.Itoa(os.Getpid())
	files := map[string]string{
		me:        "4330\nlocalhost\n/var/log/pcp/pmlogger/host/20261122\n",
		"primary": "4331\nhost.example\n/a/b\n",
		"1999999": "4332\ndead\n/x\n", // no such process
		"junk":    "4333\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := findLoggers()
	if len(got) != 2 {
		t.Fatalf("found %+v", got)
	}
	if got[0].name != "primary" || got[0].port != 4331 || got[0].pmcdHost != "host.example" || got[0].archive != "/a/b" {
		t.Errorf("primary: %+v", got[0])
	}
	if got[1].name != me || got[1].pid != int32(os.Getpid()) || got[1].port != 4330 || got[1].archive != "/var/log/pcp/pmlogger/host/20261122" {
		t.Errorf("logger: %+v", got[1])
	}
}

// TestFindPmies reads a pmie statistics file laid out as pmiestats_t.
func TestFindPmies(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("PCP_TMP_DIR", tmp)
	dir := filepath.Join(tmp, "pmie")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, pmieSize)
	copy(b, "/etc/pcp/pmie/config.default")
	copy(b[pmiePath:], "/var/log/pcp/pmie/pmie.log")
	copy(b[2*pmiePath:], "host.example")
	put := func(off int, v uint32) { binary.NativeEndian.PutUint32(b[off:], v) }
	put(pmieFloatOff, math.Float32bits(2.5))
	for i, v := range []uint32{7, 3, 10, 20, 1, 31, 1} { // numrules ... version
		put(pmieFloatOff+4+4*i, v)
	}
	me := strconv.Itoa(os.Getpid())
	if err := os.WriteFile(filepath.Join(dir, me), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "1"), b[:100], 0o644); err != nil { // wrong size
		t.Fatal(err)
	}
	got := findPmies()
	if len(got) != 1 {
		t.Fatalf("found %+v", got)
	}
	st := got[0].stats
	if st.config != "/etc/pcp/pmie/config.default" || st.logfile != "/var/log/pcp/pmie/pmie.log" ||
		st.host != "host.example" || st.evalExpected != 2.5 || st.numRules != 7 || st.actions != 3 ||
		st.evalTrue != 10 || st.evalFalse != 20 || st.evalUnknown != 1 || st.evalActual != 31 {
		t.Errorf("stats %+v", st)
	}
}

// TestTimezone checks pmcd.timezone's squashed POSIX form as libpcp
// makes it, in winter and summer.
func TestTimezone(t *testing.T) {
	jan := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	jul := time.Date(2026, 7, 15, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		zone string
		when time.Time
		want string
	}{
		{"UTC", jan, "UTC"},
		{"America/New_York", jan, "EST+5"},
		{"America/New_York", jul, "EDT+4"},
		{"Asia/Kolkata", jan, "IST-5:30"},
		{"America/St_Johns", jan, "NST+3:30"},
		{"Europe/London", jul, "BST-1"},
	} {
		loc, err := time.LoadLocation(c.zone)
		if err != nil {
			t.Logf("%s: %v", c.zone, err)
			continue
		}
		if got := timezoneAt(c.when, loc); got != c.want {
			t.Errorf("%s at %v: %q, want %q", c.zone, c.when, got, c.want)
		}
	}
}

// TestZoneinfo: pmcd.zoneinfo is the ":Area/City" TZ pmcd was given, else
// the zone /etc/localtime names; the agent reads no environment itself.
func TestZoneinfo(t *testing.T) {
	t.Setenv("TZ", ":Asia/Tokyo")
	if got := zoneinfo(":Europe/Paris"); got != ":Europe/Paris" {
		t.Errorf("zoneinfo(:Europe/Paris) = %q", got)
	}
	if got, sys := zoneinfo("EST-10"), zoneinfo(""); got != sys || got == ":Asia/Tokyo" {
		t.Errorf("zoneinfo(EST-10) = %q, without TZ %q", got, sys)
	}
}
