package fetchgroup

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pmapi"
)

// TestCreateHasGlobalDerived checks that Create's context has the
// process's derived metrics, read from PCP_DERIVED_CONFIG as libpcp reads
// them. The process-wide registry is loaded once, so the check runs in a
// child process of this test binary started with the variable set.
func TestCreateHasGlobalDerived(t *testing.T) {
	if path := os.Getenv("GOPCP_FG_CHILD_ARCHIVE"); path != "" {
		g, err := Create(context.Background(), pmapi.KindArchive, path)
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		os.Stdout.WriteString(runScript(t, g, derivedArchiveScript, nil))
		return
	}
	bin := pcptest.Harness(t, "testdata/harness/fetchgroup.c")
	path := filepath.Join(qaArchives, "sample-secs")
	if _, err := os.Stat(path + ".meta"); err != nil {
		pcptest.Missing(t, "QA archive: "+err.Error())
	}
	conf, err := filepath.Abs("testdata/derived-archive.conf")
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PCP_DERIVED_CONFIG="+conf)
	lib := exec.Command(bin, "archive", path)
	lib.Env, lib.Stdin = env, strings.NewReader(derivedArchiveScript)
	want, err := lib.Output()
	if err != nil {
		t.Fatalf("harness: %v", err)
	}
	child := exec.Command(os.Args[0], "-test.run=^TestCreateHasGlobalDerived$")
	child.Env = append(env, "GOPCP_FG_CHILD_ARCHIVE="+path)
	out, err := child.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got, _, _ := strings.Cut(string(out), "PASS\n")
	if d := diffTranscripts(string(want), got, 0); d != "" {
		t.Errorf("%s\nlibpcp:\n%s\ngopcp:\n%s", d, want, got)
	}
}
