package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestIPv6Enabled: libpcp's reading of proc, on a made-up proc tree.
func TestIPv6Enabled(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		disable string // "-" for no file
		ifInet6 bool
		want    bool
	}{
		{"enabled", "0\n", false, true},
		{"disabled", "1\n", true, false},
		{"empty file", "", false, true}, // fgetc's EOF is not '1'

		{"no file, if_inet6", "-", true, true},
		{"no file, no if_inet6", "-", false, false},
	} {
		proc := t.TempDir()
		if c.disable != "-" {
			d := filepath.Join(proc, "sys/net/ipv6/conf/all")
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, "disable_ipv6"), []byte(c.disable), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if c.ifInet6 {
			if err := os.MkdirAll(filepath.Join(proc, "net"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(proc, "net/if_inet6"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := ipv6Enabled(proc); got != c.want {
			t.Errorf("%s: ipv6Enabled = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestNoIPv6LikePCP runs PCP's pmcd and ours in private network
// namespaces with IPv6 on and off (disable_ipv6), with and without
// PMCD_LOCAL: the table of request ports and the warnings are the same
// (no ipv6 row and no complaint where IPv6 is off).
func TestNoIPv6LikePCP(t *testing.T) {
	t.Parallel()
	ns := privateNet(t)
	if ns == nil {
		t.Skip("needs a private network namespace to turn IPv6 off")
	}
	in := testbed.Need(t)
	ours := buildPMCD(t)
	keep := regexp.MustCompile(`(?m)^(.*Warning.*|.*Error.*|  (ok|err) .* (inet|ipv6) .*)$`)
	run := func(bin, local, off string) string {
		dir := privateDirs(t)
		conf := filepath.Join(dir, "pmcd.conf")
		if err := os.WriteFile(conf, []byte(pmcdLine), 0o644); err != nil {
			t.Fatal(err)
		}
		logPath := filepath.Join(dir, "log", "pmcd.log")
		// The daemon runs until the log has its table, then is stopped;
		// the namespace's ports are its own, so a fixed one is safe.
		script := `ip link set lo up 2>/dev/null; echo ` + off + ` >/proc/sys/net/ipv6/conf/all/disable_ipv6 || exit 3
"$@" & pid=$!
i=0; while [ $i -lt 600 ] && ! grep -q 'pmcd request port' "$LOG" 2>/dev/null; do sleep 0.1; i=$((i+1)); done
kill -INT $pid; wait $pid; exit 0`
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		argv := append(ns[1:], "sh", "-c", script, "sh", bin, "-f", "-A", "-s", filepath.Join(dir, "run", "pmcd.socket"),
			"-l", logPath, "-x", filepath.Join(dir, "log", "fatal"), "-c", conf, "-p", "31790")
		cmd := exec.CommandContext(ctx, ns[0], argv...)
		cmd.Env = append(withoutPMCDVars(os.Environ()), "PCP_RUN_DIR="+filepath.Join(dir, "run"),
			"PCP_TMP_DIR="+filepath.Join(dir, "tmp"), "PMCD_ROOT_AGENT=0", "LOG="+logPath, "PMCD_LOCAL="+local)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", bin, err, out)
		}
		log, _ := os.ReadFile(logPath)
		rows := strings.Join(keep.FindAllString(string(log)+string(out), -1), "\n")
		return regexp.MustCompile(`(?m)^  (ok|err)\s+-?\d+`).ReplaceAllString(stamp.ReplaceAllString(rows, "[TIME] pmcd(PID)"), "  $1 FD")
	}
	for _, local := range []string{"0", "1"} {
		for _, off := range []string{"0", "1"} {
			want := run(in.PMCD, local, off)
			got := run(ours, local, off)
			if got != want || !strings.Contains(want, "31790 inet") || strings.Contains(want, "ipv6") != (off == "0") {
				t.Errorf("PMCD_LOCAL=%s disable_ipv6=%s:\nPCP's:\n%s\nours:\n%s", local, off, want, got)
			}
		}
	}
}
