package pcptest

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// FetchClient is one run of the libpcp fetch client
// (testdata/fetchclient.c): a context of its own on a pmcd, fetching the
// same metrics at each Fetch, for the tests that compare the state
// changes PCP's pmcd and ours report to libpcp's clients.
type FetchClient struct {
	in  io.WriteCloser
	out *bufio.Reader
}

// StartFetchClient builds the client once per test binary and starts it on
// the pmcd at host with the environment env, looking up metrics; it ends
// with the test. verbose adds the names and labels bits and the first
// value to each line ("fetch STS names N labels L numval V [value X]"
// instead of "fetch STS numval V").
func StartFetchClient(t testing.TB, host string, env []string, verbose bool, metrics ...string) *FetchClient {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot find the fetch client's source")
	}
	bin := Harness(t, filepath.Join(filepath.Dir(here), "testdata", "fetchclient.c"))
	args := []string{host}
	if verbose {
		args = []string{"-v", host}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append(args, metrics...)...)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cancel(); cmd.Wait() })
	c := &FetchClient{in: in, out: bufio.NewReader(out)}
	if line := c.line(t); line != "ready" {
		t.Fatalf("fetch client: %q", line)
	}
	return c
}

func (c *FetchClient) line(t testing.TB) string {
	t.Helper()
	s, err := c.out.ReadString('\n')
	if err != nil {
		t.Fatalf("fetch client: %v (read %q)", err, s)
	}
	return strings.TrimSuffix(s, "\n")
}

// Fetch has the client fetch its metrics and returns the line it printed.
func (c *FetchClient) Fetch(t testing.TB) string {
	t.Helper()
	if _, err := io.WriteString(c.in, "fetch\n"); err != nil {
		t.Fatal(err)
	}
	return c.line(t)
}
