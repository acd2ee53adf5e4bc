package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// qaArchives is where PCP's testsuite installs its archives.
const qaArchives = "/var/lib/pcp/testsuite/archives"

// archiveCases are pmstat runs over QA archives with pmstat's metrics:
// interpolated sampling from the start, time windows (-S, -T, -O, -A),
// zones (-z, -Z), -x, -P, several archives at once, origins where no
// data is left, and runs to the archive's end.
var archiveCases = func() [][]string {
	var cases [][]string
	opts := [][]string{
		{"-t", "10", "-s", "5", "-z"},
		{"-t", "1m", "-x", "-s", "20"},
		{"-O", "+5m", "-t", "1m", "-s", "3"},
		{"-A", "1m", "-t", "1m", "-s", "4", "-Z", "UTC"},
		{"-t", "0.5", "-s", "30"},
		{"-t", "0.1", "-P", "-s", "2"},
	}
	for _, a := range []string{"20041125", "ac15", "bug1057", "20180102", "20130706", "pcp-zeroconf", "dm-io"} {
		for _, o := range opts {
			cases = append(cases, append([]string{"-a", a}, o...))
		}
	}
	return append(cases,
		[]string{"-a", "pcp-vmstat", "-t", "10", "-s", "5", "-z"},
		[]string{"-a", "20180102", "-a", "bug1057", "-a", "20041125", "-t", "1m", "-s", "5"},
		[]string{"-a", "20180102", "-a", "bug1057", "-a", "20041125", "-t", "1m", "-s", "5", "-l"},
		// a directory of several archives: libpcp fails a fetch past
		// their end with PM_ERR_EOL only once it reads in the last one,
		// so the first such fetch has no values
		[]string{"-s", "2", "-S", "+10s", "-t", "250min", "-a", "multi-xz"},
		[]string{"-s", "2", "-S", "+10s", "-t", "250min", "-a", "multi"},
		[]string{"-s", "2", "-S", "+10s", "-t", "250min", "-a", "multi-xz/20150508.11.44"},
		[]string{"-s", "3", "-S", "@15:55:00", "-t", "10min", "-a", "multi", "-Z", "UTC"},
		[]string{"-s", "3", "-S", "@15:58:00", "-t", "3min", "-a", "multi", "-Z", "UTC"},
		[]string{"-s", "3", "-S", "@15:47:00", "-t", "13min", "-a", "multi-xz-1k", "-Z", "UTC"},
		[]string{"-s", "4", "-S", "+5min", "-t", "6min", "-a", "multi"},
	)
}()

// archiveRun is one run's outputs.
type archiveRun struct {
	Stdout, Stderr string
	Code           int
}

// wallClock is a report header after a failed fetch, which libpcp stamps
// with the time of the failure.
var wallClock = regexp.MustCompile(`(?m)^@ .* 20[2-9][0-9]$`)

func normalize(r archiveRun) archiveRun {
	r.Stdout = wallClock.ReplaceAllString(r.Stdout, "@ (time of a failed fetch)")
	return r
}

// TestArchivesAgainstPCP compares our pmstat with PCP's on QA archives:
// with PCP's answers captured in testdata/archives.json (UPDATE_GOLDEN=1
// runs PCP's pmstat to capture them again), and with PCP's pmstat run now
// when it is installed.
func TestArchivesAgainstPCP(t *testing.T) {
	if _, err := os.Stat(filepath.Join(qaArchives, "20041125.meta")); err != nil {
		pcptest.Missing(t, "PCP's QA archives (pcp-testsuite)")
		return
	}
	t.Setenv("TZ", "UTC") // the zone of reports without -z or -Z
	golden, err := filepath.Abs(filepath.Join("testdata", "archives.json"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(qaArchives) // where the archives' relative names resolve
	want := map[string]archiveRun{}
	update := os.Getenv("UPDATE_GOLDEN") != ""
	if !update {
		data, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
	}
	var pmstat string
	if _, err := exec.LookPath("pmstat"); err == nil || update {
		pmstat = pcptest.NeedTool(t, "pmstat")
	}
	for _, args := range archiveCases {
		key := strings.Join(args, " ")
		var live *archiveRun
		if pmstat != "" {
			r := runPCP(t, pmstat, args)
			live = &r
			if update {
				want[key] = r
			}
		}
		var out, errw bytes.Buffer
		code := run(context.Background(), append([]string{"pmstat"}, args...), &out, &errw, func(time.Duration) {})
		got := normalize(archiveRun{out.String(), errw.String(), code})
		w, ok := want[key]
		if !ok {
			t.Errorf("%s: no answer of PCP's captured (UPDATE_GOLDEN=1)", key)
			continue
		}
		if got != w {
			t.Errorf("pmstat %s\nPCP (captured): exit %d\n%s%s\ngopcp: exit %d\n%s%s", key, w.Code, w.Stdout, w.Stderr, got.Code, got.Stdout, got.Stderr)
		}
		if live != nil && *live != got {
			t.Errorf("pmstat %s\nPCP (now): exit %d\n%s%s\ngopcp: exit %d\n%s%s", key, live.Code, live.Stdout, live.Stderr, got.Code, got.Stdout, got.Stderr)
		}
	}
	if update {
		data, err := json.MarshalIndent(want, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runPCP(t *testing.T, pmstat string, args []string) archiveRun {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, errw, code := clitest.RunCmd(t, exec.CommandContext(ctx, pmstat, args...))
	return normalize(archiveRun{string(out), string(errw), code})
}
