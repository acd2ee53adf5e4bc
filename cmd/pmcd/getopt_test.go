package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestCommandLineLikePCP runs pmcd -v on a good configuration with
// PCP's pmcd and ours, with option values getopt reads its own way (an
// argument joined to a short option keeps its "=", long options by a
// unique prefix, an argument given to a long option that takes none)
// and with the PCP_* variables pmGetOptions reads for the tools, which
// PCP's pmcd, built on pmgetopt_r alone, ignores: the same status and
// messages.
func TestCommandLineLikePCP(t *testing.T) {
	t.Parallel()
	in := testbed.Need(t)
	ours := buildPMCD(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "pmcd.conf")
	if err := os.WriteFile(conf, []byte("pmcd 2 dso pmcd_init /var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fatal := filepath.Join(dir, "fatal")
	tests := []struct {
		env  []string
		args []string
	}{
		{nil, []string{"-L=5"}},
		{nil, []string{"-t=3"}},
		{nil, []string{"-q3"}},
		// -q, -t and -T are (int)strtol(arg, &end, 10) to its end.
		{nil, []string{"-t", ""}},
		{nil, []string{"-q", " 3"}},
		{nil, []string{"-q", "+3"}},
		{nil, []string{"-T", "4294967297"}},
		{nil, []string{"-t", "-4294967296"}},
		{nil, []string{"-q", "4294967296"}},
		{nil, []string{"-t", "99999999999999999999"}},
		{nil, []string{"--verif"}},
		{nil, []string{"--foreground=yes"}},
		{nil, []string{"--con"}},
		{nil, []string{"-D=pdu"}},
		{nil, []string{"-Dpdu,fetch"}},
		{nil, []string{"-D", "nosuch"}},
		{nil, []string{"-D", "nosuch", "-Z"}},
		{[]string{"PCP_HOST=a", "PCP_ARCHIVE=b"}, nil},
		{[]string{"PCP_START_TIME=x"}, nil},
		{[]string{"PCP_NAMESPACE=/nonexistent/gopcp"}, nil},
		{[]string{"PCP_DEBUG=nosuch"}, nil},
	}
	for _, tt := range tests {
		args := append([]string{"-v", "-x", fatal}, tt.args...)
		args = append(args, "-c", conf)
		if got, want := runMasked(t, ours, tt.env, args), runMasked(t, in.PMCD, tt.env, args); got != want {
			t.Errorf("%v pmcd %v:\nours:\n%s\nPCP's:\n%s", tt.env, args, got, want)
		}
	}
}
