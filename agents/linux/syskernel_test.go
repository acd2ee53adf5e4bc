package linux

import (
	"bytes"
	"context"
	"log"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestSysKernelReadFailure: pid_max that cannot be read is served at the
// kernel's largest, as a missing file is, and the failure is reported
// once while it lasts; a missing file is not reported.
func TestSysKernelReadFailure(t *testing.T) {
	root := t.TempDir()
	var logged bytes.Buffer
	x, err := newLinux(Options{ProcRoot: root + "/proc", SysRoot: root + "/sys", EtcRoot: root + "/etc",
		UtmpPath: root + "/utmp", InterfacesConf: root + "/none", NoCache: true, Log: log.New(&logged, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	a, err := x.agent(Domain)
	if err != nil {
		t.Fatal(err)
	}
	var pmid pcp.PMID
	for i := range pcpDescs {
		if pcpDescs[i].Name == "kernel.all.pid_max" {
			pmid = pcpDescs[i].desc(Domain).PMID
		}
	}
	fail := syscall.Errno(0)
	readHook = func(path string) ([]byte, error) {
		if strings.HasSuffix(path, "sys/kernel/pid_max") && fail != 0 {
			return nil, fail
		}
		if strings.HasSuffix(path, "sys/kernel/pid_max") {
			return []byte("32768\n"), nil
		}
		return nil, os.ErrNotExist
	}
	defer func() { readHook = nil }()
	for i, step := range []struct {
		fail syscall.Errno
		want uint32
		logs int
	}{
		{0, 32768, 0},
		{syscall.EACCES, 1 << 22, 1},
		{syscall.EACCES, 1 << 22, 1}, // the same failure again: not reported again
		{0, 32768, 1},
		{syscall.ENOENT, 1 << 22, 1}, // missing: the kernel's answer
		{syscall.EIO, 1 << 22, 2},
	} {
		fail = step.fail
		res, err := a.Fetch(context.Background(), 0, []pcp.PMID{pmid})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Sets[0].Values[0].LVal; uint32(got) != step.want {
			t.Errorf("step %d (%v): pid_max %d, want %d", i, step.fail, uint32(got), step.want)
		}
		if n := strings.Count(logged.String(), "pid_max"); n != step.logs {
			t.Errorf("step %d (%v): %d reports, want %d:\n%s", i, step.fail, n, step.logs, logged.String())
		}
	}
}
