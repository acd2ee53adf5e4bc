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
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// rdo runs one Redis command, failing the test on an error.
func rdo(t *testing.T, c resp.Client, args ...string) resp.Value {
	t.Helper()
	v, err := c.Do(context.Background(), args...)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return v
}

// redisDump is every key of a Redis database as text: type, whether it
// has a time to live, and its content in a canonical order.
func redisDump(t *testing.T, c resp.Client) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, k := range rdo(t, c, "KEYS", "*").Strings() {
		typ := rdo(t, c, "TYPE", k).Str
		var lines []string
		switch typ {
		case "string":
			lines = []string{rdo(t, c, "GET", k).Str}
		case "hash":
			for f, v := range rdo(t, c, "HGETALL", k).StringMap() {
				lines = append(lines, fmt.Sprintf("%q=%q", f, v))
			}
		case "set":
			for _, m := range rdo(t, c, "SMEMBERS", k).Strings() {
				lines = append(lines, fmt.Sprintf("%q", m))
			}
		case "zset":
			for m, sc := range rdo(t, c, "ZRANGE", k, "0", "-1", "WITHSCORES").StringMap() {
				f, _ := strconv.ParseFloat(sc, 64)
				lines = append(lines, fmt.Sprintf("%q:%v", m, f))
			}
		case "stream":
			for _, e := range rdo(t, c, "XRANGE", k, "-", "+").Elems {
				var fs []string
				for f, v := range e.Elems[1].StringMap() {
					fs = append(fs, fmt.Sprintf("%q=%q", f, v))
				}
				sort.Strings(fs)
				lines = append(lines, e.Elems[0].Str+" "+strings.Join(fs, " "))
			}
		}
		if typ != "stream" {
			sort.Strings(lines)
		}
		out[k] = fmt.Sprintf("%s ttl=%v\n%s", typ, rdo(t, c, "TTL", k).Int > 0, strings.Join(lines, "\n"))
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
	archDir := t.TempDir()
	conf := "[pmproxy]\npcp.enabled = false\nhttp.enabled = true\n" +
		"[redis]\nenabled = true\nservers = " + ours.Addr() + "\n" +
		"[pmseries]\nenabled = true\n[discover]\nenabled = true\npath = " + archDir + "\n"
	// -D discovery: ours says its first scan then, as PCP's says with
	// it what it tracks
	startOursAt(t, conf, t.TempDir(), dir, "-Ddiscovery")
	waitLog(t, filepath.Join(dir, "pmproxy.log"), "discover: first scan")
	followedByPCP := redistest.Start(t)
	startPCPDiscover(t, followedByPCP.Port, archDir)

	// pmlogger writes into a directory of its own: the bed's holds links
	// to the system's QA archives, which PCP's pmproxy would follow
	const samples = 30
	base := filepath.Join(archDir, "archive")
	runPMLogger(t, bed, archDir, base, "sample.long.one sample.colour sample.string.hullo sample.double.one sample.ulonglong.one sample.bin", samples)
	// PCP's pmseries --load stops at the current wall-clock second
	// (nanoseconds zero), passing over records of this very second
	a, err := archive.Open(base, archive.Options{})
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
	if out, err := exec.Command(pmseries, "-c", cpath, "-p", strconv.Itoa(theirs.Port), "--load", base).CombinedOutput(); err != nil {
		t.Fatalf("PCP's pmseries --load: %v\n%s", err, out)
	}
	oc := resp.NewPool(ours.Addr(), resp.Options{})
	defer oc.Close()
	pc := resp.NewPool(theirs.Addr(), resp.Options{})
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

	// PCP's pmproxy starts on an archive at its end when it first opens
	// it, and names its source and series by the labels it has read by
	// then (docs/series.md): what it wrote is compared by metric and
	// instance name, every value it wrote found alike in ours.
	fc := resp.NewPool(followedByPCP.Addr(), resp.Options{})
	defer fc.Close()
	var theirsFollowed map[string]string
	for prev, deadline := -1, time.Now().Add(60*time.Second); ; time.Sleep(500 * time.Millisecond) {
		theirsFollowed = namedValues(t, fc)
		if len(theirsFollowed) > 0 && len(theirsFollowed) == prev || time.Now().After(deadline) {
			break
		}
		prev = len(theirsFollowed)
	}
	oursFollowed := namedValues(t, oc)
	same := 0
	for k, v := range theirsFollowed {
		if o, ok := oursFollowed[k]; !ok {
			t.Errorf("PCP's pmproxy wrote %s = %s, ours has no such value", k, v)
		} else if o != v {
			t.Errorf("%s: PCP's pmproxy wrote %s, ours %s", k, v, o)
		} else {
			same++
		}
	}
	if same == 0 {
		t.Errorf("PCP's pmproxy following the archive wrote no values: nothing compared")
	}
	t.Logf("PCP's pmproxy following the same archive wrote %d values (of the %d ours has), all alike in ours", same, len(oursFollowed))
}

// runPMLogger runs PCP's pmlogger against the bed's pmcd for samples
// records of metrics every 100 ms into the archive base, its
// configuration written in cfgDir, and waits for it to end.
func runPMLogger(t *testing.T, bed *testbed.PMCD, cfgDir, base, metrics string, samples int) {
	t.Helper()
	cfg := filepath.Join(cfgDir, "config")
	if err := os.WriteFile(cfg, []byte("log mandatory on 100 msec { "+metrics+" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lport, lrelease, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lrelease)
	logger, err := bed.Command(context.Background(), "pmlogger", "-h", bed.Host(), "-c", cfg,
		"-l", filepath.Join(t.TempDir(), "pmlogger.log"), "-s", strconv.Itoa(samples), base)
	if err != nil {
		t.Fatal(err)
	}
	logger.Env = append(logger.Env, "PMLOGGER_PORT="+strconv.Itoa(lport))
	if out, err := logger.CombinedOutput(); err != nil {
		t.Fatalf("PCP's pmlogger: %v\n%s", err, out)
	}
}

// namedValues reads every value of a Redis in PCP's schema as
// "metric name[instance name]@stream ID" to value.
func namedValues(t *testing.T, c resp.Client) map[string]string {
	t.Helper()
	names := rdo(t, c, "HGETALL", "pcp:map:metric.name").StringMap()
	instNames := rdo(t, c, "HGETALL", "pcp:map:inst.name").StringMap()
	out := map[string]string{}
	for id, name := range names {
		for _, sid := range rdo(t, c, "SMEMBERS", fmt.Sprintf("pcp:series:metric.name:%x", id)).Strings() {
			for _, e := range rdo(t, c, "XRANGE", fmt.Sprintf("pcp:values:series:%x", sid), "-", "+").Elems {
				fv := e.Elems[1].Strings()
				for i := 0; i+1 < len(fv); i += 2 {
					f, v := fv[i], fv[i+1]
					inst := ""
					if f != "" {
						iname, ok := rdo(t, c, "HGET", fmt.Sprintf("pcp:inst:series:%x", f), "name").Text()
						if !ok {
							t.Fatalf("instance %x of %s: no name", f, name)
						}
						inst = instNames[iname]
					}
					out[fmt.Sprintf("%s[%s]@%s", name, inst, e.Elems[0].Str)] = v
				}
			}
		}
	}
	return out
}

// startPCPDiscover runs PCP's pmproxy with [discover] on under dir, into
// the Redis at redisPort (PCP 6.0.3's pmproxy connects to its -h/-r
// server, so both it and the configuration name it), and waits until its
// discovery tracks the directory (its -Ddiscovery log says so).
func startPCPDiscover(t *testing.T, redisPort int, dir string) {
	t.Helper()
	_, logPath := startPCPConf(t, "[pmproxy]\npcp.enabled = false\nhttp.enabled = true\n"+
		"[redis]\nenabled = true\nservers = 127.0.0.1:"+strconv.Itoa(redisPort)+"\n"+
		"[discover]\nenabled = true\npath = "+dir+"\n[pmsearch]\nenabled = false\n[pmseries]\nenabled = true\n",
		[]string{"PCP_ARCHIVE_DIR=" + dir}, "-Ddiscovery", "-h", "127.0.0.1", "-r", strconv.Itoa(redisPort))
	waitLog(t, logPath, "Now tracking")
}

// startPCPConf starts PCP's pmproxy in the foreground on a free port with
// conf as its pmproxy.conf, private PCP_RUN_DIR and PCP_TMP_DIR and env
// added, stopped at the test's end; it returns its address and log.
func startPCPConf(t *testing.T, conf string, env []string, args ...string) (addr, logPath string) {
	t.Helper()
	bin := pcptest.NeedTool(t, "pmproxy")
	own := t.TempDir()
	for _, d := range []string{"run", "tmp"} {
		if err := os.MkdirAll(filepath.Join(own, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cpath := filepath.Join(own, "pmproxy.conf")
	if err := os.WriteFile(cpath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	logPath = filepath.Join(own, "pmproxy.log")
	cmd := exec.Command(bin, append([]string{"-f", "-A", "-p", strconv.Itoa(port), "-c", cpath, "-l", logPath,
		"-s", filepath.Join(own, "run", "sock")}, args...)...)
	cmd.Env = append(append(os.Environ(), "PCP_RUN_DIR="+filepath.Join(own, "run"), "PCP_TMP_DIR="+filepath.Join(own, "tmp")), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return "localhost:" + strconv.Itoa(port), logPath
}
