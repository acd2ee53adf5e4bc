package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// FuzzRun gives pmdate arbitrary offsets and formats at a fixed present:
// it must end with status 0 or 1, its output never longer than the
// buffer PCP's pmdate expands the format into.
func FuzzRun(f *testing.F) {
	for _, s := range [][3]string{{"+1d", "-3m", "%c"}, {"+2147483647y", "+2147483647y", "%Y"},
		{"-21474836m", "+0S", "%G %V %Z"}, {"+x", "+1", "%"}, {"+99999999999999999999S", "-?", "%300Y"}} {
		f.Add(s[0], s[1], s[2], "Europe/London")
	}
	saved := clock
	clock = func() time.Time { return time.Unix(1784115000, 0) }
	f.Cleanup(func() { clock = saved })
	f.Fuzz(func(t *testing.T, a, b, format, tz string) {
		if strings.IndexByte(a+b+format+tz, 0) >= 0 {
			return // arguments and the environment hold no NUL
		}
		t.Setenv("TZ", tz)
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"pmdate", a, b, format}, &stdout, &stderr)
		if code != 0 && code != 1 {
			t.Fatalf("exit %d", code)
		}
		if stdout.Len() > len(format)+room {
			t.Fatalf("%d bytes for a %d byte format", stdout.Len(), len(format))
		}
	})
}
