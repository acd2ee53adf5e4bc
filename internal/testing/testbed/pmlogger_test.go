package testbed

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestStartLogger(t *testing.T) {
	t.Parallel()
	p := StartPMCD(t, Options{})
	l := p.StartLogger(t, LoggerOptions{
		Config: "log mandatory on 100 msec { sample.long.one }\n",
	})
	if l.Port == 0 {
		t.Fatal("pmlogger has no control port")
	}

	// pmlc must reach this pmlogger over its private control port, and
	// that pmlogger must be recording from this bed's pmcd.
	res := p.RunInput([]byte("status\n"), "pmlc", "-h", "localhost", "-p", fmt.Sprint(l.Port))
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if !strings.Contains(res.Stdout, p.Host()) {
		t.Errorf("pmlc status does not name pmcd %s:\n%s", p.Host(), res.Stdout)
	}

	// Wait (boundedly) for a few records, then stop pmlogger so the
	// archive is complete, and read the values back with pmdumplog.
	want := promisedOne(t, p)
	deadline := time.Now().Add(30 * time.Second)
	for {
		res = p.Run("pmdumplog", l.Archive, "sample.long.one")
		if strings.Count(res.Stdout, "(sample.long.one):") >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(pollInterval)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	res = p.Run("pmdumplog", l.Archive, "sample.long.one")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	values := regexp.MustCompile(`\(sample\.long\.one\): value (\S+)`).FindAllStringSubmatch(res.Stdout, -1)
	if len(values) < 3 {
		t.Fatalf("archive holds %d values of sample.long.one, want at least 3:\n%s", len(values), res.Stdout)
	}
	for _, v := range values {
		if v[1] != want {
			t.Errorf("archived sample.long.one = %s, want %s", v[1], want)
		}
	}
}
