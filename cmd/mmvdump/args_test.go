package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestArgumentsAgainstPCP runs PCP's mmvdump and ours on command lines
// that name no MMV file: an empty name, one that does not exist, a
// directory, a file that is not MMV, and too many arguments (whose usage
// message names the program as it was run, so each side's own path is
// masked).
func TestArgumentsAgainstPCP(t *testing.T) {
	pcpBin := filepath.Join(testbed.Need(t).Var("PCP_PMDAS_DIR"), "mmv", "mmvdump")
	ours := pcptest.GoCommand(t, ".")
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	short := filepath.Join(dir, "short")
	badVersion := filepath.Join(dir, "version")
	for name, body := range map[string]string{empty: "", short: "MMV\x00", badVersion: "MMV\x00\x09\x00\x00\x00" + strings.Repeat("\x00", 34)} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{""}, {"/nonexistent"}, {t.TempDir()}, {"/etc/hostname"}, {"a", "b"}, {"", ""},
		// options it has none of, the end of options, and files too
		// short to be MMV or of a version it does not know
		{"-"}, {"--"}, {"-x"}, {"--help"}, {"-?"}, {"--", "/nonexistent"}, {empty}, {short}, {badVersion},
	} {
		wantOut, wantErr, wantCode := clitest.RunCmd(t, exec.Command(pcpBin, args...))
		gotOut, gotErr, gotCode := clitest.RunCmd(t, exec.Command(ours, args...))
		wantErr = bytes.ReplaceAll(wantErr, []byte(pcpBin), []byte("mmvdump"))
		gotErr = bytes.ReplaceAll(gotErr, []byte(ours), []byte("mmvdump"))
		if gotCode != wantCode || !bytes.Equal(gotOut, wantOut) || !bytes.Equal(gotErr, wantErr) {
			t.Errorf("mmvdump %q: exit %d, stdout %q, stderr %q\nPCP's: exit %d, stdout %q, stderr %q",
				args, gotCode, gotOut, gotErr, wantCode, wantOut, wantErr)
		}
	}
}
