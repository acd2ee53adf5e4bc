package childproc

import (
	"bytes"
	"io"
	"os/exec"
	"testing"
	"time"
)

// TestStartPiped runs cat on pipes: what is written comes back, closing
// its input ends it without a kill, and nothing of the pipes is left
// open in the child (its output ends when it exits).
func TestStartPiped(t *testing.T) {
	cmd := exec.Command("cat")
	in, out, done, err := StartPiped(cmd)
	if err != nil {
		t.Skip("no cat:", err)
	}
	defer out.Close()
	if _, err := in.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	in.Close()
	got, err := io.ReadAll(out)
	if err != nil || !bytes.Equal(got, []byte("hello\n")) {
		t.Errorf("read %q, %v; want %q", got, err, "hello\n")
	}
	if killed := Stop(cmd, done, time.Minute); killed || !cmd.ProcessState.Success() {
		t.Errorf("Stop: killed %v, %v; want exited with 0", killed, cmd.ProcessState)
	}
}

// TestStopKills: a child that does not end when asked is killed after
// the grace.
func TestStopKills(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	in, out, done, err := StartPiped(cmd)
	if err != nil {
		t.Skip("no sleep:", err)
	}
	in.Close()
	out.Close()
	if killed := Stop(cmd, done, 10*time.Millisecond); !killed || cmd.ProcessState.Success() {
		t.Errorf("Stop: killed %v, %v; want killed", killed, cmd.ProcessState)
	}
}

// TestStartPipedFails: a program that cannot run is an error.
func TestStartPipedFails(t *testing.T) {
	if _, _, _, err := StartPiped(exec.Command("/nonexistent/program")); err == nil {
		t.Fatal("no error starting a program that does not exist")
	}
}
