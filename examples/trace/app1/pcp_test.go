package main

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/trace"
)

// record runs bin against a stand-in agent that acknowledges each
// synchronous datum, and returns the PDUs it sent, pids and elapsed
// times masked.
func record(t *testing.T, bin string) []byte {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu  sync.Mutex
		got []byte
		wg  sync.WaitGroup
	)
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				c.Write(trace.AppendAck(nil, 1, trace.Version))
				br := bufio.NewReader(c)
				buf := make([]byte, trace.MaxPDULen)
				for {
					_, pdu, err := trace.ReadPDU(br, buf)
					if err != nil {
						return
					}
					d, err := trace.DecodeData(pdu)
					if err != nil {
						return
					}
					p := append([]byte(nil), pdu...)
					copy(p[8:12], "PPPP")
					if d.Type == trace.TypeTransact {
						copy(p[16:24], "TTTTTTTT")
					}
					mu.Lock()
					got = append(got, p...)
					mu.Unlock()
					if d.Sync {
						c.Write(trace.AppendAck(nil, 1, int32(d.Type)))
					}
				}
			})
		}
	})
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PCP_TRACE_HOST=127.0.0.1", "PCP_TRACE_PORT="+strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
	cmd.Stderr = io.Discard
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, out)
	}
	ln.Close()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return got
}

// TestApp1AsPCPs builds PCP's own demo app1.c ($PCP_DEMOS_DIR/trace)
// against libpcp_trace and runs it and this Go version against a
// recording agent: the PDUs are the same, pids and elapsed times masked.
func TestApp1AsPCPs(t *testing.T) {
	demos, ok := pcpconf.Get("PCP_DEMOS_DIR")
	if !ok {
		pcptest.Missing(t, "pcp.conf names no PCP_DEMOS_DIR")
	}
	src := filepath.Join(demos, "trace", "app1.c")
	if _, err := os.Stat(src); err != nil {
		pcptest.Missing(t, "PCP's trace demos are not installed: "+err.Error())
	}
	dir := t.TempDir()
	cbin := filepath.Join(dir, "app1c")
	pcptest.Compile(t, pcptest.C{Src: src, Out: cbin, Libs: []string{"-lpcp_trace"}, Headers: []string{"trace.h"}})
	gobin := pcptest.GoCommand(t, ".")
	c, g := record(t, cbin), record(t, gobin)
	if len(c) == 0 || string(c) != string(g) {
		t.Errorf("PDUs differ\nPCP's app1.c % x\nours         % x", c, g)
	}
	n := 0
	for off := 0; off+4 <= len(c); off += int(binary.BigEndian.Uint32(c[off:])) {
		n++
	}
	t.Logf("%d PDUs, %d bytes alike", n, len(c))
}
