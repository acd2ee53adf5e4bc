package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// problemRE finds the metrics pmlogger reports trouble with.
var problemRE = regexp.MustCompile(`metric "([^"]+)"`)

// noiseRE matches what differs between two runs of one warning.
var noiseRE = regexp.MustCompile(`\[[^]]*\]|\(\d+\)|/\S+`)

// loggerWarnings runs PCP's pmlogger with config against bed for a few
// samples and returns the metric names its log warns about, and the log.
func loggerWarnings(t *testing.T, bed *testbed.PMCD, name, config string) ([]string, string) {
	t.Helper()
	l := bed.StartLogger(t, testbed.LoggerOptions{Config: config, Name: name, Args: []string{"-t", "200msec", "-s", "3"}})
	if err := l.Wait(90 * time.Second); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(l.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	// Each problem is a metric with the reason given on the next line;
	// other warnings are kept as lines without their time stamps, process
	// numbers and file locations.
	seen := map[string]bool{}
	lines := strings.Split(log, "\n")
	for i, line := range lines {
		if m := problemRE.FindStringSubmatch(line); m != nil {
			reason := ""
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "Reason:") {
				reason = lines[i+1]
			}
			seen[m[1]+" "+reason] = true
			continue
		}
		low := strings.ToLower(line)
		if strings.HasPrefix(line, "Warning [") || strings.HasPrefix(line, "Reason:") ||
			!(strings.Contains(low, "warning") || strings.Contains(low, "error") || strings.Contains(low, "unknown")) {
			continue
		}
		seen[noiseRE.ReplaceAllString(line, "")] = true
	}
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, log
}

// testPMLoggerDefaultConfig generates pmlogger's default configuration
// with PCP's pmlogconf against PCP's own Linux agent, then records with
// it from each pmcd hosting ours: pmlogger must warn about nothing it
// does not also warn about with PCP's agent.
func testPMLoggerDefaultConfig(t *testing.T, theirs, oursPipe, oursGo *testbed.PMCD) {
	cfg := filepath.Join(t.TempDir(), "config.default")
	if r := theirs.Run("pmlogconf", "-c", "-h", theirs.Host(), cfg); r.Err != nil {
		t.Fatalf("pmlogconf: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	config := string(data)
	if !strings.Contains(config, "kernel.all.cpu") || !strings.Contains(config, "mem.util") {
		t.Fatalf("pmlogconf's configuration lacks the Linux metrics:\n%s", config)
	}
	want, wantLog := loggerWarnings(t, theirs, "theirs", config)
	allowed := map[string]bool{}
	for _, w := range want {
		allowed[w] = true
	}
	for _, ours := range []*testbed.PMCD{oursPipe, oursGo} {
		got, log := loggerWarnings(t, ours, "ours", config)
		var extra []string
		for _, g := range got {
			// pmcd's own metrics are another agent's.
			if !allowed[g] && !strings.HasPrefix(g, "pmcd.") {
				extra = append(extra, g)
			}
		}
		if len(extra) > 0 {
			t.Errorf("go pmcd %v: pmlogger warns about what it does not with PCP's agent:\n%s\nour log:\n%s\nPCP's log:\n%s",
				ours.IsGo(), strings.Join(extra, "\n"), log, wantLog)
		}
	}
}
