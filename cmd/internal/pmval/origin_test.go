package pmval

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestOriginAloneAgainstPCP gives pmval -O with no -a or -h: libpcp's
// option parsing then opens this host's archives,
// $PCP_ARCHIVE_DIR/<hostname>, before the metric is read. Compared with
// PCP's pmval with that directory holding QA archive 20041125, and with
// it missing.
func TestOriginAloneAgainstPCP(t *testing.T) {
	archive := clitest.QAArchive(t, "20041125")
	host, err := os.Hostname()
	if err != nil {
		t.Skip(err)
	}
	full := t.TempDir()
	if err := os.Mkdir(filepath.Join(full, host), 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(archive + ".*")
	for _, f := range files {
		if err := os.Symlink(f, filepath.Join(full, host, filepath.Base(f))); err != nil {
			t.Fatal(err)
		}
	}
	empty := t.TempDir()
	var cases []clitest.Case
	for _, dir := range []struct{ name, path string }{{"archives", full}, {"none", empty}} {
		env := []string{"PCP_ARCHIVE_DIR=" + dir.path}
		for _, args := range [][]string{
			{"-s", "3", "-t", "2m", "-O", "+10m", "kernel.all.load"},
			{"-s", "2", "-t", "5m", "-O", "@23:40", "-z", "kernel.all.load"},
			{"-s", "2", "-O", "-5m", "-S", "+1m", "disk.all.total"},
			{"-O", "+1m", "-T", "+3m", "-t", "1m", "kernel.all.load[1]"},
			{"-O", "+1m", "localhost/kernel.all.load"},
		} {
			cases = append(cases, clitest.Case{Name: dir.name, Args: args, Env: env})
		}
	}
	clitest.CompareLocal(t, "pmval", run, cases)
}
