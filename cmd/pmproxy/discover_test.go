package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// redisDump is every key of a Redis database as text: type, whether it
// has a time to live, and its content in a canonical order.
func redisDump(t *testing.T, c *redis.Client) map[string]string {
	t.Helper()
	ctx := context.Background()
	keys, err := c.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, k := range keys {
		typ := c.Type(ctx, k).Val()
		var lines []string
		switch typ {
		case "string":
			lines = []string{c.Get(ctx, k).Val()}
		case "hash":
			for f, v := range c.HGetAll(ctx, k).Val() {
				lines = append(lines, fmt.Sprintf("%q=%q", f, v))
			}
		case "set":
			for _, m := range c.SMembers(ctx, k).Val() {
				lines = append(lines, fmt.Sprintf("%q", m))
			}
		case "zset":
			for _, z := range c.ZRangeWithScores(ctx, k, 0, -1).Val() {
				lines = append(lines, fmt.Sprintf("%q:%v", z.Member, z.Score))
			}
		case "stream":
			for _, e := range c.XRange(ctx, k, "-", "+").Val() {
				var fs []string
				for f, v := range e.Values {
					fs = append(fs, fmt.Sprintf("%q=%q", f, fmt.Sprint(v)))
				}
				sort.Strings(fs)
				lines = append(lines, e.ID+" "+strings.Join(fs, " "))
			}
		}
		if typ != "stream" {
			sort.Strings(lines)
		}
		out[k] = fmt.Sprintf("%s ttl=%v\n%s", typ, c.TTL(ctx, k).Val() > 0, strings.Join(lines, "\n"))
	}
	return out
}

// dumpDiff says how two dumps differ, at most a few keys' worth.
func dumpDiff(want, got map[string]string) []string {
	var d []string
	for k, v := range want {
		if g, ok := got[k]; !ok {
			d = append(d, "missing "+k)
		} else if g != v {
			d = append(d, fmt.Sprintf("differs %s:\nours:\n%.600s\nPCP's:\n%.600s", k, g, v))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			d = append(d, "ours only "+k)
		}
	}
	sort.Strings(d)
	return d
}

// waitLog waits for a line holding s in a log file.
func waitLog(t *testing.T, path, s string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(path); strings.Contains(string(b), s) {
			return
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(path)
			t.Fatalf("no %q in %s:\n%s", s, path, b)
		}
	}
}

// TestDiscoverFollowsPMLogger runs PCP's pmlogger against a private pmcd
// while our pmproxy, with [discover] on, follows the archive it writes
// into a private Redis: once pmlogger has finished, Redis holds what PCP's
// pmseries --load writes for the finished archive, key for key (the
// archive appeared after pmproxy's first scan, so it is loaded whole).
func TestDiscoverFollowsPMLogger(t *testing.T) {
	pmseries := pcptest.NeedTool(t, "pmseries")
	ours, theirs := redistest.Start(t), redistest.Start(t)
	bed := testbed.StartPMCD(t, testbed.Options{})
	dir := t.TempDir()
	conf := "[pmproxy]\npcp.enabled = false\nhttp.enabled = true\n" +
		"[redis]\nenabled = true\nservers = " + ours.Addr() + "\n" +
		"[pmseries]\nenabled = true\n[discover]\nenabled = true\npath = " + bed.Dir() + "\n"
	startOursAt(t, conf, t.TempDir(), dir)
	waitLog(t, filepath.Join(dir, "pmproxy.log"), "discover: first scan")

	const samples = 15
	l := bed.StartLogger(t, testbed.LoggerOptions{
		Config: "log mandatory on 100 msec { sample.long.one sample.colour sample.string.hullo sample.double.one sample.ulonglong.one sample.bin }\n",
		Args:   []string{"-s", strconv.Itoa(samples)},
	})
	if err := l.Wait(2 * time.Minute); err != nil {
		t.Fatalf("pmlogger: %v", err)
	}
	// PCP's pmseries --load stops at the current wall-clock second
	// (nanoseconds zero), passing over records of this very second
	a, err := archive.Open(l.Archive, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	end, err := a.End()
	a.Close()
	if err != nil {
		t.Fatal(err)
	}
	for time.Now().Unix() <= end.Sec {
		time.Sleep(100 * time.Millisecond)
	}
	cpath := filepath.Join(t.TempDir(), "pmseries.conf")
	if err := os.WriteFile(cpath, []byte("[pmseries]\nenabled = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(pmseries, "-c", cpath, "-p", strconv.Itoa(theirs.Port), "--load", l.Archive).CombinedOutput(); err != nil {
		t.Fatalf("PCP's pmseries --load: %v\n%s", err, out)
	}
	oc := redis.NewClient(&redis.Options{Addr: ours.Addr()})
	defer oc.Close()
	pc := redis.NewClient(&redis.Options{Addr: theirs.Addr()})
	defer pc.Close()
	want := redisDump(t, pc)
	var diff []string
	// pmproxy polls the directory every second: wait for it to catch up
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		diff = dumpDiff(want, redisDump(t, oc))
		if len(diff) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for i, d := range diff {
		if i == 10 {
			t.Errorf("... %d differences in all", len(diff))
			break
		}
		t.Error(d)
	}
	streams := 0
	for k := range want {
		if strings.HasPrefix(k, "pcp:values:series:") {
			streams++
		}
	}
	if streams == 0 {
		t.Fatalf("PCP's load wrote no value streams: nothing compared")
	}
	if len(diff) == 0 {
		t.Logf("%d keys (%d value streams) followed by our pmproxy equal PCP's pmseries --load of the finished archive", len(want), streams)
	}
}
