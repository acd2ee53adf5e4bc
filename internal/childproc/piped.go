package childproc

import (
	"os"
	"os/exec"
	"time"
)

// StartPiped starts cmd (as Start does) with its standard input and
// output on pipes, as pmcd runs a pipe agent and a local context its
// companion: in is written to the child, out read from it, both able to
// take deadlines (os.Pipe's ends are the runtime poller's). done is
// closed once the child has ended and been waited for (Watch). The
// caller closes in and out, then calls Stop.
func StartPiped(cmd *exec.Cmd) (in, out *os.File, done <-chan struct{}, err error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = Start(cmd)
	// The child's ends are its own now: kept open here, they would keep
	// its output from ending when it exits.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, nil, nil, err
	}
	return inW, outR, Watch(cmd), nil
}

// Watch waits for cmd, started, in a goroutine of its own: the channel
// is closed once cmd.ProcessState is set.
func Watch(cmd *exec.Cmd) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	return done
}

// Stop waits for a child that has been asked to end (its input closed)
// and whose end done announces (Watch), killing it if it has not ended
// within grace; it says whether it had to.
func Stop(cmd *exec.Cmd, done <-chan struct{}, grace time.Duration) (killed bool) {
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
		return false
	case <-t.C:
		_ = cmd.Process.Kill()
		<-done
		return true
	}
}
