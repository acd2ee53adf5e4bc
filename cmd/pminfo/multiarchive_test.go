package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestMultiArchiveAgainstPCP compares pminfo on several archives with
// PCP's: given as several -a (which libpcp joins into one list), as one
// comma-separated list, as their directory, with repeats, out of time
// order, with one missing, and through PCP_ARCHIVE, on QA's multi
// archives, plain and compressed.
func TestMultiArchiveAgainstPCP(t *testing.T) {
	ops := [][]string{{"-f", "proc.nprocs", "kernel.all.load"}, {"-T", "disk.dev.read"}, {"-dtl", "kernel.all.load"}, {"-O", "+200", "-f", "disk.dev.read"}, {"-f", "no.such.metric"}}
	cases := clitest.MultiArchiveCases(t, ops, nil)
	cases = append(cases, envListCases(t)...)
	clitest.CompareLocal(t, "pminfo", run, cases)
}

// envListCases are the list forms pmGetOptions takes from the
// environment: PCP_ARCHIVE_LIST, PCP_HOST_LIST and PCP_FOLIO (archive
// folios, good and bad).
func envListCases(t *testing.T) []clitest.Case {
	d := clitest.QAArchive(t, "multi")
	dir := t.TempDir()
	if err := os.Symlink(d, filepath.Join(dir, "multi")); err != nil {
		t.Fatal(err)
	}
	folio := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := folio("good.folio", "PCPFolio\nVersion: 1\n# made by hand\nArchive:\tvm\t"+
		filepath.Join(d, "20150508.11.44")+"\nArchive: vm multi/20150508.11.46\n")
	op := []string{"-f", "kernel.all.load", "disk.dev.read"}
	env := func(name string, e string, args ...string) clitest.Case {
		return clitest.Case{Name: name, Env: []string{e}, Args: append(args, op...)}
	}
	return []clitest.Case{
		env("archive list", "PCP_ARCHIVE_LIST="+filepath.Join(d, "20150508.11.44")+","+filepath.Join(d, "20150508.11.50")),
		env("archive list and -a", "PCP_ARCHIVE_LIST="+filepath.Join(d, "20150508.11.44"), "-a", filepath.Join(d, "20150508.11.57")),
		env("archive list and -h", "PCP_ARCHIVE_LIST="+filepath.Join(d, "20150508.11.44"), "-h", "local:"),
		env("host list and -a", "PCP_HOST_LIST=a,b", "-a", filepath.Join(d, "20150508.11.44")),
		env("host list of two", "PCP_HOST_LIST=a,,b"),
		env("folio", "PCP_FOLIO="+good),
		env("folio and -a", "PCP_FOLIO="+good, "-a", filepath.Join(d, "20150508.11.57")),
		env("folio bad magic", "PCP_FOLIO="+folio("magic.folio", "PCPfolio\nVersion: 1\n")),
		env("folio bad version", "PCP_FOLIO="+folio("version.folio", "PCPFolio\nVersion: 2\n")),
		env("folio no version", "PCP_FOLIO="+folio("short.folio", "PCPFolio\n")),
		env("folio empty", "PCP_FOLIO="+folio("empty.folio", "")),
		env("folio missing host", "PCP_FOLIO="+folio("host.folio", "PCPFolio\nVersion: 1\n\nArchive:   \n")),
		env("folio missing path", "PCP_FOLIO="+folio("path.folio", "PCPFolio\nVersion: 1\nArchive: vm\n")),
		env("folio missing", "PCP_FOLIO="+filepath.Join(dir, "no.such.folio")),
		env("folio unnamed", "PCP_FOLIO="),
	}
}
