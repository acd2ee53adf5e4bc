package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestMultiArchivesAgainstPCP compares pmstat with PCP's on several
// archives at once, each a source of its own (PM_OPTFLAG_MULTI): named by
// repeated -a, by PCP_ARCHIVE_LIST (empty names and a final comma
// included), by PCP_ARCHIVE beside -a, twice, as a list or a directory in
// one -a; with archives that cannot be opened or have none of pmstat's
// metrics (before and after the first good one), time windows over the
// archives' joint bounds, and hosts mixed in.
func TestMultiArchivesAgainstPCP(t *testing.T) {
	a := clitest.QAArchive(t, "20041125")     // mortenb, Nov 24 23:10 to 23:58 2004 UTC
	b := clitest.QAArchive(t, "bug1057")      // sourceware, no data
	c := clitest.QAArchive(t, "20180102")     // bozo, no data
	dir := clitest.QAArchive(t, "multi")      // a directory of one host's archives
	vm0 := clitest.QAArchive(t, "multi-vm00") // none of pmstat's metrics
	vm1 := clitest.QAArchive(t, "multi-vm01")
	const missing = "/nonexistent/archive"
	cases := []clitest.Case{
		{Name: "three -a", Args: []string{"-a", c, "-a", b, "-a", a, "-t", "1m", "-s", "5"}},
		{Name: "archive list", Args: []string{"-t", "1m", "-s", "5"}, Env: []string{"PCP_ARCHIVE_LIST=" + c + "," + b + "," + a}},
		{Name: "list with an empty name", Args: []string{"-t", "10m", "-s", "2"}, Env: []string{"PCP_ARCHIVE_LIST=" + a + ",," + b}},
		{Name: "list with a final comma", Args: []string{"-t", "10m", "-s", "2"}, Env: []string{"PCP_ARCHIVE_LIST=" + a + "," + b + ","}},
		{Name: "list and -a", Args: []string{"-a", b, "-t", "10m", "-s", "3", "-l"}, Env: []string{"PCP_ARCHIVE_LIST=" + a}},
		{Name: "PCP_ARCHIVE and -a", Args: []string{"-a", b, "-t", "10m", "-s", "2"}, Env: []string{"PCP_ARCHIVE=" + a}},
		{Name: "PCP_ARCHIVE and the same -a", Args: []string{"-a", a, "-t", "10m", "-s", "2"}, Env: []string{"PCP_ARCHIVE=" + a}},
		{Name: "-a twice", Args: []string{"-a", a, "-a", a, "-t", "10m", "-s", "3"}},
		{Name: "a list in one -a", Args: []string{"-a", a + "," + b, "-a", dir, "-t", "10m", "-s", "2"}},
		{Name: "directory and archive", Args: []string{"-a", dir, "-a", a, "-t", "30m", "-s", "3", "-Z", "UTC"}},
		{Name: "missing first", Args: []string{"-a", missing, "-a", a, "-a", b, "-t", "10m", "-s", "2", "-z"}},
		{Name: "missing last", Args: []string{"-a", a, "-a", b, "-a", missing, "-t", "10m", "-s", "2"}},
		{Name: "bad window before a missing archive", Args: []string{"-a", a, "-a", b, "-S", "garbage", "-a", missing}},
		{Name: "only missing", Args: []string{"-a", missing, "-a", missing + "2"}},
		{Name: "no metrics", Args: []string{"-a", vm0, "-a", vm1, "-s", "2"}},
		{Name: "no metrics then good", Args: []string{"-a", vm0, "-a", a, "-t", "10m", "-s", "2"}},
		{Name: "joint window", Args: []string{"-a", a, "-a", dir, "-S", "@23:30", "-T", "+20min", "-t", "5m", "-Z", "UTC"}},
		{Name: "origin from the joint end", Args: []string{"-a", a, "-a", b, "-O", "-10min", "-t", "1m", "-s", "3"}},
		{Name: "aligned", Args: []string{"-a", a, "-a", b, "-A", "5m", "-t", "5m", "-s", "3", "-x"}},
		{Name: "empty start", Args: []string{"-a", a, "-a", b, "-S", "", "-t", "10m", "-s", "2"}},
		{Name: "archive then host", Args: []string{"-a", a, "-h", "local:", "-s", "1"}},
		{Name: "host then archive", Args: []string{"-h", "local:", "-a", a, "-s", "1"}},
		{Name: "host list then archive", Args: []string{"-a", a, "-s", "1"}, Env: []string{"PCP_HOST_LIST=x,y"}},
		{Name: "archive list then host", Args: []string{"-h", "x", "-s", "1"}, Env: []string{"PCP_ARCHIVE_LIST=" + a + "," + b}},
	}
	// -O with no source reads this host's own archives, the directory
	// $PCP_ARCHIVE_DIR/hostname
	own := t.TempDir()
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(own, host), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".0", ".meta", ".index"} {
		data, err := os.ReadFile(a + ext)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(own, host, "20041125"+ext), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ownDir := []string{"PCP_ARCHIVE_DIR=" + own}
	cases = append(cases,
		clitest.Case{Name: "origin alone", Args: []string{"-O", "@23:20", "-t", "10m", "-s", "3", "-Z", "UTC"}, Env: ownDir},
		clitest.Case{Name: "empty origin alone", Args: []string{"-O", "", "-t", "10m", "-s", "2"}, Env: ownDir},
		clitest.Case{Name: "origin from the environment", Args: []string{"-t", "5m", "-s", "2", "-z"}, Env: append([]string{"PCP_ORIGIN_TIME=+10min"}, ownDir...)},
		clitest.Case{Name: "origin alone, no archives", Args: []string{"-O", "@23:20", "-s", "1"}, Env: []string{"PCP_ARCHIVE_DIR=" + filepath.Join(own, "none")}},
	)
	for i := range cases {
		cases[i].Mask = func(s string) string { return wallClock.ReplaceAllString(s, "@ (time of a failed fetch)") }
	}
	clitest.CompareLocal(t, "pmstat", func(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
		return run(ctx, argv, stdout, stderr, func(time.Duration) {})
	}, cases)
}
