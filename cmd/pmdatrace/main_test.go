package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func noEnv(string) (string, bool) { return "", false }

// TestBadOptions checks that pmdatrace's options are checked as PCP's
// are, before anything is bound or written.
func TestBadOptions(t *testing.T) {
	for _, args := range [][]string{
		{"-N", "0"}, {"-N", "x"}, {"-T", "soon"}, {"-A", "permit:host"}, {"-A", "allow:h:x"},
		{"-U", "1,2,3"}, {"-V", "a,b,c,d,e,f"}, {"-d", "0"}, {"-Z"}, {"-?"},
	} {
		var stderr bytes.Buffer
		if st := run("pmdatrace", append([]string{"pmdatrace", "-l", filepath.Join(t.TempDir(), "log")}, args...), nil, noEnv, &stderr); st != 1 {
			t.Errorf("%v: status %d", args, st)
		}
		if stderr.Len() == 0 {
			t.Errorf("%v: nothing said", args)
		}
	}
}

// TestPortTakenLeavesLog checks that a second agent whose port is taken
// fails without touching the log the first one writes.
func TestPortTakenLeavesLog(t *testing.T) {
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	logf := filepath.Join(t.TempDir(), "trace.log")
	if err := os.WriteFile(logf, []byte("the first agent's log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if st := run("pmdatrace", []string{"pmdatrace", "-I", strconv.Itoa(port), "-l", logf}, nil, noEnv, &stderr); st != 1 {
		t.Fatalf("status %d", st)
	}
	if b, _ := os.ReadFile(logf); string(b) != "the first agent's log\n" {
		t.Errorf("log touched: %q", b)
	}
	if _, err := os.Stat(logf + ".prev"); err == nil {
		t.Error("log moved aside")
	}
	if !strings.Contains(stderr.String(), "address already in use") {
		t.Errorf("stderr: %q", stderr.String())
	}
}
