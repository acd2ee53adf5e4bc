package pcptest

import (
	"os"
	"runtime"
	"testing"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fakeT records a Fatalf instead of ending the real test; it must be used
// on a goroutine of its own, which Fatalf ends.
type fakeT struct {
	testing.TB
	fatal bool
}

func (f *fakeT) Helper() {}

func (f *fakeT) Fatalf(string, ...any) {
	f.fatal = true
	runtime.Goexit()
}

func (f *fakeT) Fatal(...any) { f.Fatalf("") }
