package clitest

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

// TestGreeterSentPerProgram: a program connected to a Greeter has not
// sent anything while another has; Sent says so of each, by its pid.
func TestGreeterSentPerProgram(t *testing.T) {
	g := NewGreeter(t, 0)
	// A program that connects and sends nothing (bash's /dev/tcp).
	quiet := exec.Command("bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/"+strconv.Itoa(g.port)+"; sleep 60")
	if err := quiet.Start(); err != nil {
		t.Skip("no bash:", err)
	}
	t.Cleanup(func() {
		quiet.Process.Kill()
		quiet.Wait()
	})
	for deadline := time.Now().Add(time.Minute); len(connections(quiet.Process.Pid, g.port)) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Skip("bash did not connect through /dev/tcp")
		}
	}
	// This process sends.
	c, err := net.Dial("tcp", g.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write((&pdu.Error{}).Append(nil, 0)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); !g.Sent(nil, os.Getpid()); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("what this process sent was not seen")
		}
	}
	if g.Sent(nil, quiet.Process.Pid) {
		t.Error("a program that sent nothing counts as having sent")
	}
	g.Reset()
	if g.Sent(nil, os.Getpid()) {
		t.Error("what came before the Reset still counts")
	}
}
