package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// header builds an MMV header: magic, version, generations, TOC count,
// flags, process and cluster, then extra zero bytes.
func header(magic string, version int32, g1, g2 uint64, tocs int32, flags uint32, process, cluster int32, extra int) []byte {
	b := append([]byte(magic), make([]byte, 40-len(magic)+extra)...)
	le := binary.LittleEndian
	le.PutUint32(b[4:], uint32(version))
	le.PutUint64(b[8:], g1)
	le.PutUint64(b[16:], g2)
	le.PutUint32(b[24:], uint32(tocs))
	le.PutUint32(b[28:], flags)
	le.PutUint32(b[32:], uint32(process))
	le.PutUint32(b[36:], uint32(cluster))
	return b
}

// TestHeaderFaultsAsPCP compares mmvdump with PCP's on files whose
// header is at fault (each check PCP's makes before the table of
// contents, with the header lines it prints first) and on files it
// cannot map: stdout, stderr and the exit status.
func TestHeaderFaultsAsPCP(t *testing.T) {
	pcpDump := filepath.Join(testbed.Need(t).Var("PCP_PMDAS_DIR"), "mmv", "mmvdump")
	if _, err := os.Stat(pcpDump); err != nil {
		pcptest.Missing(t, "PCP's mmvdump is not installed")
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"empty":      {},
		"short":      []byte("MMV\x00\x01"),
		"magic":      header("XY\x00", 1, 1, 1, 2, 0, 0, 0, 0),
		"magic-nul":  header("", 1, 1, 1, 2, 0, 0, 0, 0),
		"version0":   header("MMV", 0, 1, 1, 2, 0, 0, 0, 0),
		"version4":   header("MMV", 4, 1, 1, 2, 0, 0, 0, 0),
		"generation": header("MMV", 2, 5, 6, 2, 0, 0, 0, 0),
		"tocs1":      header("MMV", 1, 7, 7, 1, 0, 0, 0, 0),
		"tocs-neg":   header("MMV", 3, 7, 7, -3, 0, 0, 0, 0),
		"cluster":    header("MMV", 1, 7, 7, 2, 0, 0, 4096, 0),
		"cluster-ng": header("MMV", 1, 7, 7, 2, 0, 0, -1, 0),
		"toc-short":  header("MMV", 2, 7, 7, 3, 5, 42, 12, 40),
		"toc-flags":  header("MMV", 3, 7, 7, 2, 0x10, 1, 1, 8),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "directory"), 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"missing", "directory"}
	for name := range files {
		names = append(names, name)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name)
			wantOut, wantErr, wantCode := clitest.RunCmd(t, exec.Command(pcpDump, p))
			var gotOut, gotErr bytes.Buffer
			code := 1
			if b, err := readFile(p); err != nil {
				gotErr.WriteString(perror(p, err) + "\n")
			} else {
				code = run(&gotOut, p, b)
			}
			if gotOut.String() != string(wantOut) || gotErr.String() != string(wantErr) || code != wantCode {
				t.Errorf("PCP: status %d stdout %q stderr %q\nours: status %d stdout %q stderr %q",
					wantCode, string(wantOut), string(wantErr), code, gotOut.String(), gotErr.String())
			}
		})
	}
}
