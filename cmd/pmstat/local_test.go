package main

import (
	"bytes"
	"context"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestLocalAgainstPCP runs PCP's pmstat -L (libpcp's in-process Linux
// agent) and ours (gopcp's Linux agent in process) at the same time and
// compares the reports as TestAgainstPCP does. Agents of pmcd.conf that
// gopcp does not have are skipped with a warning on stderr, which is not
// compared.
func TestLocalAgainstPCP(t *testing.T) {
	pmstat := pcptest.NeedTool(t, "pmstat")
	for _, args := range [][]string{
		{"-L", "-t", "0.4", "-s", "2"},
		{"-L", "-x", "-t", "0.4", "-s", "2"},
	} {
		t.Run(fmtArgs(args), func(t *testing.T) {
			var (
				wg     sync.WaitGroup
				theirs []byte
				terr   error
			)
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				theirs, terr = exec.CommandContext(ctx, pmstat, args...).Output()
			}()
			var out, errb bytes.Buffer
			code := run(context.Background(), append([]string{"pmstat"}, args...), &out, &errb, time.Sleep)
			wg.Wait()
			if terr != nil || code != 0 {
				t.Fatalf("exit: PCP %v, gopcp %d (%s)", terr, code, errb.String())
			}
			if d := compareReports(string(theirs), out.String()); d != "" {
				t.Errorf("%s\nPCP:\n%s\ngopcp:\n%s", d, theirs, out.String())
			}
		})
	}
}
