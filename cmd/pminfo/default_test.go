package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestDefaultSource runs pminfo without -h, which reaches pmcd as
// "local:" (the bed's PMCD_SOCKET, then PMCD_PORT), as PCP's does.
func TestDefaultSource(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	for _, kv := range bed.Env() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			t.Setenv(k, v)
		}
	}
	for _, args := range [][]string{
		{"-m", "sample.long.one"},
		{"-dT", "sample.long"},
		{"-f", "sample.string.hullo", "nosuch"},
	} {
		want := bed.Run("pminfo", args...)
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"pminfo"}, args...), &stdout, &stderr)
		if stdout.String() != want.Stdout || stderr.String() != want.Stderr || code != want.ExitCode {
			t.Errorf("pminfo %q:\nours (%d):\n%s%s\nPCP's (%d):\n%s%s", args,
				code, stdout.String(), stderr.String(), want.ExitCode, want.Stdout, want.Stderr)
		}
	}
}
