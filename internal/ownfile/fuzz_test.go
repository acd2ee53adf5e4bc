package ownfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// FuzzReadPID: whatever a pid file holds, readPID gives a positive pid
// only when the file is that number (white space around it allowed).
func FuzzReadPID(f *testing.F) {
	for _, s := range []string{"12345", "12345\n", " 7 ", "", "0", "-3", "x", "99999999999999999999", "1\n2\n"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "pid")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		pid, ok := readPID(path)
		if !ok {
			return
		}
		if pid <= 0 || len(data) > maxPIDFile {
			t.Fatalf("readPID(%q) = %d", data, pid)
		}
		if n, err := strconv.Atoi(string(bytes.Trim(data, " \t\n\r\v\f"))); err != nil || n != pid {
			t.Fatalf("readPID(%q) = %d, Atoi %d %v", data, pid, n, err)
		}
	})
}
