package pmda

import (
	"context"
	"errors"
	"flag"
	"log"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestClose: Close runs the closers once, last added first, joins their
// errors and gives the same answer to every later call, concurrent ones
// included; a closer added after Close runs at once.
func TestClose(t *testing.T) {
	a, err := New(Config{Name: "x", Domain: 250, Fetcher: &testFetcher{}})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	errA, errB := errors.New("a failed"), errors.New("b failed")
	a.OnClose(func() error { order = append(order, "a"); return errA })
	a.OnClose(func() error { order = append(order, "b"); return errB })
	a.OnClose(func() error { order = append(order, "c"); return nil })
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = a.Close() })
	}
	wg.Wait()
	if got := strings.Join(order, ","); got != "c,b,a" {
		t.Errorf("closers ran %q, want c,b,a once each", got)
	}
	for i, err := range errs {
		if !errors.Is(err, errA) || !errors.Is(err, errB) {
			t.Errorf("Close %d: %v, want both closers' errors", i, err)
		}
	}
	late := false
	a.OnClose(func() error { late = true; return nil })
	if !late {
		t.Error("a closer added after Close did not run")
	}
	if err := a.Close(); !errors.Is(err, errA) {
		t.Errorf("Close again: %v", err)
	}
}

// TestDaemonMainCloses: a daemon agent is closed when Main returns,
// before its log is closed, so what its closers report is logged.
func TestDaemonMainCloses(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "x.log")
	closed := 0
	build := func(*log.Logger) (*Agent, error) {
		a, err := New(Config{Name: "x", Domain: 250, Fetcher: &testFetcher{}})
		if err != nil {
			return nil, err
		}
		a.OnClose(func() error { closed++; return errors.New("listener: already gone") })
		return a, nil
	}
	o := DaemonOptions{Domain: 250, LogFile: "x.log"}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	o.Flags(fs)
	var stdout, stderr strings.Builder
	o.main(context.Background(), fs, []string{"-l", logPath}, build, strings.NewReader(""), &stdout, &stderr)
	if closed != 1 {
		t.Errorf("agent closed %d times, want once", closed)
	}
	if log := readFile(t, logPath); !strings.Contains(log, "listener: already gone") {
		t.Errorf("the closer's error is not in the log:\n%s", log)
	}
}
