package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// FuzzRun gives pmerr arbitrary arguments: it must end with status 0 or
// 1, writing one line a code (two for a positive one) or the usage.
func FuzzRun(f *testing.F) {
	for _, s := range []string{"-12345", "0x3039", "-l", "-?", "-x", "", "12abc", "0x", "-", " +7", "0xffffffffffffffffff"} {
		f.Add(s, "-1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if strings.IndexByte(a+b, 0) >= 0 {
			return // arguments hold no NUL
		}
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"pmerr", a, b}, &stdout, &stderr)
		if code != 0 && code != 1 {
			t.Fatalf("exit %d", code)
		}
		if code == 0 && (stderr.Len() > 0 || strings.Count(stdout.String(), "\n") > 4+strings.Count(a+b, "\n")) {
			t.Fatalf("%q %q: %q %q", a, b, stdout.String(), stderr.String())
		}
	})
}
