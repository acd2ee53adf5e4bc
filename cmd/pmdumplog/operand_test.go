package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestArchiveOperandAgainstPCP compares how the archive is named: a
// directory or a comma-separated list (refused), the time window and -z
// with the archive operand (the end checks wait for it), -a being
// pmdumplog's own option, and PCP_ARCHIVE standing for the operand; and
// metrics named more than once after it.
func TestArchiveOperandAgainstPCP(t *testing.T) {
	needQA(t)
	pcp := pcptest.NeedTool(t, "pmdumplog")
	t.Setenv("TZ", "UTC")
	wd, _ := os.Getwd()
	if err := os.Chdir(qaDir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	for _, tc := range []struct {
		env  string
		args []string
	}{
		{"", []string{"multi"}},
		{"", []string{"multi/20150508.11.44,multi/20150508.11.46"}},
		{"", []string{"-S", "+10", "-T", "+60", "mark-bug"}},
		{"", []string{"-z", "-l", "mark-bug"}},
		{"", []string{"-a", "mark-bug", "mark-bug"}},
		{"", []string{"-l"}},
		{"", []string{"-S", "+10"}},
		{"PCP_ARCHIVE=mark-bug", []string{"-l"}},
		{"PCP_ARCHIVE=mark-bug", []string{"-m", "sample.bin"}},
		{"PCP_ARCHIVE=multi", []string{"-l"}},
		{"PCP_ARCHIVE=mark-bug", []string{"-l", "omnibus_v3"}},
		{"PCP_ARCHIVE=nosuch", []string{"-l"}},
		// a metric named alone and under its parent is printed once
		{"", []string{"-S", "-2m", "bigace_v2", "kernel.all.runque", "kernel.all", "kernel.all.runque"}},
		{"", []string{"-r", "-T", "+1m", "bigace_v2", "kernel.all.load", "kernel.all.cpu", "kernel.all.cpu.user"}},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, pcp, tc.args...)
		cmd.Env = append(os.Environ(), tc.env)
		wantOut, wantErr, wantCode := clitest.RunCmd(t, cmd)
		cancel()
		if tc.env != "" {
			name, value, _ := bytes.Cut([]byte(tc.env), []byte("="))
			t.Setenv(string(name), string(value))
		}
		var out, errb bytes.Buffer
		code := run(append([]string{"pmdumplog"}, tc.args...), &out, &errb)
		if tc.env != "" {
			name, _, _ := bytes.Cut([]byte(tc.env), []byte("="))
			os.Unsetenv(string(name))
		}
		if out.String() != string(wantOut) || errb.String() != string(wantErr) || code != wantCode {
			t.Errorf("%s pmdumplog %q: exit %d, PCP's %d\n%s\nstderr %q, PCP's %q", tc.env, tc.args, code, wantCode,
				firstDiff("stdout", out.Bytes(), wantOut), errb.String(), string(wantErr))
		}
	}
	// With PCP_HOST the archive is refused; PCP's pmdumplog then crashes,
	// ours says why.
	t.Setenv("PCP_HOST", "local:")
	var out, errb bytes.Buffer
	if code := run([]string{"pmdumplog", "-l", "mark-bug"}, &out, &errb); code != 1 || errb.String() != "pmdumplog: only one host or archive allowed\n" {
		t.Errorf("with PCP_HOST: exit %d, %q", code, errb.String())
	}
}
