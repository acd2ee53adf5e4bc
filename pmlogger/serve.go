package pmlogger

import (
	"context"
	"io"
	"net"
	"os"
	"sync/atomic"
	"time"
)

// ServeOptions say what a logger answers while Serve runs it.
type ServeOptions struct {
	// Control are the listeners pmlc connects to: ListenControl's TCP
	// port and ListenLocal's Unix-domain socket. Nil ones are skipped.
	// Each is closed when the run ends.
	Control []net.Listener
	// NewVolume asks for a switch to a new data volume, between samples,
	// with each value received: pmlogger passes SIGHUP's.
	NewVolume <-chan os.Signal
	// Session and SessionControl are a recording session (pmlogger -x):
	// the launcher's commands are read from SessionControl, and the
	// session's end (Q, or the launcher gone and the user agreeing) ends
	// the run. Nil for none.
	Session        *Session
	SessionControl io.ReadCloser
	// CloseTimeout bounds the writing of the archive's end; 0 means 10
	// seconds.
	CloseTimeout time.Duration
}

// ServeResult is how a run served by Serve ended.
type ServeResult struct {
	// Stop is why the logger stopped, in the words of pmlogger's log
	// ("Sample limit reached", "Recording session terminated", ...);
	// empty when ctx ended the run.
	Stop string
	// RunErr is Run's failure; CloseErr Close's.
	RunErr, CloseErr error
}

// Serve runs the logger (Run) until it stops on its own or ctx ends,
// answering pmlc, volume switch requests and the recording session of o
// meanwhile, then closes the archive (Close), as pmlogger's main loop
// does. When Serve returns the pmlc listeners are closed and volume
// requests no longer read; a pmlc client being answered is cut at its
// next request, and the session's goroutine ends at the launcher's next
// command or with the process, as it waits on the launcher's pipe.
func (l *Logger) Serve(ctx context.Context, o ServeOptions) ServeResult {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if o.NewVolume != nil {
		go func() {
			for {
				select {
				case <-o.NewVolume:
					l.RequestNewVolume()
				case <-runCtx.Done():
					return
				}
			}
		}()
	}
	for _, ln := range o.Control {
		if ln != nil {
			go l.ServeControl(runCtx, ln)
		}
	}
	var quit atomic.Bool
	if o.Session != nil && o.SessionControl != nil {
		go func() {
			if o.Session.Serve(runCtx, l, o.SessionControl) {
				quit.Store(true)
				cancel()
			}
		}()
	}
	var res ServeResult
	res.RunErr = l.Run(runCtx)
	res.Stop = l.StopMessage()
	if quit.Load() {
		res.Stop = "Recording session terminated"
	}
	timeout := o.CloseTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	closeCtx, cancelClose := context.WithTimeout(context.Background(), timeout)
	defer cancelClose()
	res.CloseErr = l.Close(closeCtx)
	return res
}
