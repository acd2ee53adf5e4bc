package main

import (
	"context"
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

func TestParsePorts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
		ok   bool
	}{
		{"44322", []int{44322}, true},
		{"1,2, 3", []int{1, 2, 3}, true},
		{"0", []int{0}, true},
		{"70000", []int{70000 - 65536}, true},
		{" 0x10,010", []int{16, 8}, true},
		{"1 ", nil, false},
		{"-1", nil, false},
		{"x", nil, false},
		{"", []int{0}, true},
	} {
		got, ok := parsePorts(c.in)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("parsePorts(%q) = %v %v", c.in, got, ok)
		}
	}
}

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-?"}, 0},
		{[]string{"-p", "x"}, 1},
		{[]string{"--nosuch"}, 0}, // as PCP's pmproxy, an unknown option asks for the usage
		{[]string{"extra"}, 1},
	} {
		err := run(context.Background(), c.args, nil)
		ex, ok := err.(exitError)
		if !ok || int(ex) != c.code {
			t.Errorf("pmproxy %v: %v, want exit %d", c.args, err, c.code)
		}
	}
}

// TestConfBounds sets pmproxy.conf's per-client context bound to one: a
// second context from the same client is refused with 429.
func TestConfBounds(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	proxy := startOurs(t, "[pmwebapi]\nmaxclientcontexts = 1\n")
	codes := []int{}
	for i := 0; i < 2; i++ {
		resp, err := http.Get("http://" + proxy + "/pmapi/context?hostspec=" + bed.Host())
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
	}
	if !slices.Equal(codes, []int{200, 429}) {
		t.Errorf("two contexts with maxclientcontexts = 1: %v", codes)
	}
}
