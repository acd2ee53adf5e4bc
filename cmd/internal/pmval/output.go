package pmval

import (
	"bytes"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/sigfrom"
)

// output is pmval's stdout. PCP's pmval line-buffers stdout, so each
// line is one write(2): over a long archive at a short step that was a
// fifth of our CPU. In block mode (an archive replayed as fast as it can
// be read, to something other than a terminal) lines gather and are
// written when enough are waiting; otherwise (a terminal, a live source,
// -d's pacing) every sample is written before pmval waits or goes on,
// as PCP's reader would see it.
//
// What PCP's ordering guarantees is kept in both modes: stdout's complete
// lines are written before anything goes to stderr (errWriter), and a
// line not yet ended stays behind as it does in a line buffer; writes
// are at most pipeChunk bytes and end at a line's end, so a reader of a
// pipe that kills pmval never sees part of a line, as with PCP's line
// writes; SIGINT, SIGTERM, SIGHUP and the other signals that end PCP's
// pmval (SIGUSR1, SIGALRM, SIGXFSZ, ...) write the complete lines
// waiting first (watchSignals). SIGKILL loses the lines waiting, about
// blockFill, where PCP's pmval would have written them.
type output struct {
	buf   []byte
	w     io.Writer
	fd    int  // w's descriptor for poll, -1 if w is not a file
	block bool // see output
	err   error

	// inWrite and sig are the signal handshake (watchSignals): each side
	// stores its own flag then reads the other's, so either the writer
	// sees the signal before a write that could block, or the handler
	// sees the writer inside one and ends the process itself.
	inWrite atomic.Bool
	writeFd atomic.Int32 // the descriptor inWrite's write is to, -1 if not a file
	sig     atomic.Int32
	watch   *watcher // watchSignals's, nil without
	arm     bool     // watchSignals once lines gather (armSignals)
	early   int      // samples written as they ended while arm
}

const (
	// pipeChunk is PIPE_BUF: a write to a pipe of at most this many
	// bytes is all or nothing.
	pipeChunk = 4096
	// blockFill is how much block mode gathers before writing.
	blockFill = 32 << 10
	// blockMax bounds the buffer whatever one sample prints (thousands of
	// instances, event records): past it complete lines are written at
	// once.
	blockMax = 1 << 20
)

// newOutput is stdout for pmval; block is whether it may gather lines.
func newOutput(w io.Writer, block bool) *output {
	o := &output{w: w, fd: -1, block: block, buf: make([]byte, 0, blockFill+pipeChunk)}
	if f, ok := w.(*os.File); ok {
		o.fd = int(f.Fd())
	}
	return o
}

// blockable is whether w may gather lines: anything but a terminal.
func blockable(w io.Writer) bool {
	f, ok := w.(*os.File)
	return !ok || !cli.IsTerminal(f)
}

func (o *output) Write(p []byte) (int, error) {
	o.buf = append(o.buf, p...)
	o.bound()
	return len(p), nil
}

func (o *output) WriteString(s string) (int, error) {
	o.buf = append(o.buf, s...)
	o.bound()
	return len(s), nil
}

func (o *output) WriteByte(c byte) error {
	o.buf = append(o.buf, c)
	return nil
}

// pad writes n spaces (none for n <= 0).
func (o *output) pad(n int) {
	const spaces = "                                "
	for n > 0 {
		k := min(n, len(spaces))
		o.buf = append(o.buf, spaces[:k]...)
		n -= k
		if len(o.buf) > blockMax {
			o.bound()
		}
	}
	o.bound()
}

// column writes s as C's printf("%*.*s", width, prec, s) does, in bytes:
// cut to prec unless prec is negative, padded on the left to width, or
// on the right to -width when width is negative; the padding through pad,
// never whole in memory.
func (o *output) column(s string, width, prec int) {
	if prec >= 0 && len(s) > prec {
		s = s[:prec]
	}
	if width < 0 {
		o.WriteString(s)
		o.pad(-width - len(s))
		return
	}
	o.pad(width - len(s))
	o.WriteString(s)
}

// bound writes complete lines out when one sample has printed more than
// blockMax, and a line longer than that as far as it goes, as a line
// buffer that fills does (-w pads each value to up to 2^31 columns).
func (o *output) bound() {
	if len(o.buf) > blockMax {
		o.writeOut(false)
		if len(o.buf) > blockMax {
			o.writeOut(true)
		}
	}
}

// sampleDone is where pmval has printed a sample: every complete line
// is written unless block mode has room for more. A signal noted since
// the last write is acted on here.
func (o *output) sampleDone() {
	if s := o.sig.Load(); s != 0 {
		o.signalled(syscall.Signal(s))
	}
	if o.arm {
		// The first samples are written as they end, as without
		// block mode, and lines gather (under the watch) only once
		// a run has gone on: taking the signals for the watch costs
		// the runtime a round trip between threads for each of them
		// (2 ms of CPU here for about thirty, half of pmval -s 1).
		if o.early++; o.early < lineSamples {
			o.writeOut(false)
			return
		}
		o.startWatch()
	}
	if !o.block || len(o.buf) >= blockFill {
		o.writeOut(false)
	}
}

// Flush writes everything, a line not yet ended too, as exit's flush of
// stdio does.
func (o *output) Flush() error {
	o.writeOut(true)
	return o.err
}

// writeOut writes the buffer through its last newline, or all of it, in
// writes of at most pipeChunk bytes that each end a line where one fits.
func (o *output) writeOut(all bool) {
	end := len(o.buf)
	if !all {
		end = bytes.LastIndexByte(o.buf, '\n') + 1
	}
	done := 0
	for done < end && o.err == nil {
		n := min(end-done, pipeChunk)
		if done+n < end {
			if k := bytes.LastIndexByte(o.buf[done:done+n], '\n'); k >= 0 {
				n = k + 1
			}
		}
		o.startWrite(o.fd)
		if s := o.sig.Load(); s != 0 {
			o.inWrite.Store(false)
			o.buf = o.buf[:copy(o.buf, o.buf[done:])]
			o.signalled(syscall.Signal(s))
		}
		_, o.err = o.w.Write(o.buf[done : done+n])
		o.inWrite.Store(false)
		done += n
	}
	if o.err != nil {
		o.buf = o.buf[:0]
		return
	}
	o.buf = o.buf[:copy(o.buf, o.buf[done:])]
}

// errWriter is pmval's stderr: stdout's complete lines go first, so that
// both to one place (2>&1) read in PCP's order.
type errWriter struct {
	out *output
	w   io.Writer
}

func (e *errWriter) Write(b []byte) (int, error) {
	e.out.writeOut(false)
	o := e.out
	fd := -1
	if f, ok := e.w.(*os.File); ok {
		fd = int(f.Fd())
	}
	o.startWrite(fd)
	defer o.inWrite.Store(false)
	if s := o.sig.Load(); s != 0 {
		o.inWrite.Store(false)
		o.signalled(syscall.Signal(s))
	}
	return e.w.Write(b)
}

// startWrite is the writer's half of the handshake, before a write to
// fd (-1 for something not a file): the descriptor first, so that a
// handler that sees inWrite polls the right one.
func (o *output) startWrite(fd int) {
	o.writeFd.Store(int32(fd))
	o.inWrite.Store(true)
}

// watchSignals is what keeps block mode's waiting lines on SIGINT,
// SIGTERM and SIGHUP, which end PCP's pmval with every line it finished
// written (it writes line by line and catches none of them): the handler
// notes the signal, and the run writes the complete lines and ends by the
// signal itself at its next write or sample (signalled). Inside a write
// the handler waits for it to return while the descriptor takes more,
// and ends the process at once if it does not, blocked on a full pipe
// as PCP's would be. Signals the process was started ignoring stay
// ignored. exitCheck ends the watch.
func (o *output) watchSignals() {
	if w := o.notify(); w != nil {
		go w.run()
	}
}

// armSignals has watchSignals start when lines first gather, after
// lineSamples samples written as they ended: until there are lines to
// keep, signals keep their default action, so that a run blocked before
// it printed anything (opening an archive that is a FIFO) dies at once,
// as PCP's pmval does, and a short run never pays for the watch.
func (o *output) armSignals() { o.arm = true }

// lineSamples is how many samples an armed output writes as they end
// before its lines gather: enough that a run of a few hundred samples
// (a replay of a few minutes at pmval's 1 s) never takes the signals,
// few enough that their writes cost about what taking them does. Taking
// them cost 0.4-0.6 ms of CPU here (for about thirty signals: 366 futex
// calls and 9 more threads, strace -f -c of pmval -S +60 -T +120 over
// the 100 MB archive), a line's write about 0.8 us, so a run that goes
// on to take them pays about 0.35 ms more than at 64 (-S -10 -t 0.01,
// 1,000 samples: 8.07 against 7.70 ms, median of 25 interleaved runs).
const lineSamples = 512

func (o *output) startWatch() {
	o.arm = false
	o.watchSignals()
}

// watcher is watchSignals's goroutine and what it listens on; exitCheck
// owns its end.
type watcher struct {
	o     *output
	ch    chan os.Signal
	stop  chan struct{} // closed by exitCheck
	ended chan struct{} // closed by run as it returns
	// defaulted are the signals that had their default action before
	// the watch, to have it again after
	defaulted []syscall.Signal
}

// notify takes the signals for o, nil if all are ignored; the caller
// starts run. Besides SIGINT, SIGTERM and SIGHUP, the signals the
// program gave their default action to end it as they end PCP's pmval
// (sigfrom.Defaulted: none in a test binary) are taken too, and given
// back their default action when the watch ends.
func (o *output) notify() *watcher {
	var sigs []os.Signal
	var defaulted []syscall.Signal
	for _, s := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	for _, s := range sigfrom.Defaulted() {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
			defaulted = append(defaulted, s)
		}
	}
	if len(sigs) == 0 {
		return nil
	}
	w := &watcher{o: o, ch: make(chan os.Signal, 1), stop: make(chan struct{}), ended: make(chan struct{}), defaulted: defaulted}
	o.watch = w
	signal.Notify(w.ch, sigs...)
	sigfrom.Catch(defaulted...)
	return w
}

// run handles the first signal, or returns when stopped; a signal
// already taken by Notify when the stop came is handled too.
func (w *watcher) run() {
	defer close(w.ended)
	select {
	case s := <-w.ch:
		w.o.noted(s.(syscall.Signal))
	case <-w.stop:
		select {
		case s := <-w.ch:
			w.o.noted(s.(syscall.Signal))
		default:
		}
	}
}

// writeWait is how often a handler that finds the run inside a write
// looks again at whether the write could block.
const writeWait = time.Millisecond

// noted is the handler's half of the handshake. A write under way to a
// descriptor that takes PIPE_BUF bytes without blocking returns, and the
// run sees the signal at its next write or sample; one that cannot go on
// (a full pipe, or something that cannot be polled) is where PCP's
// pmval would die, so the process ends now.
func (o *output) noted(s syscall.Signal) {
	o.sig.Store(int32(s))
	for o.inWrite.Load() {
		if fd := int(o.writeFd.Load()); fd < 0 || !canPoll || !writable(fd) {
			die(s)
		}
		time.Sleep(writeWait)
	}
}

// exitCheck ends the watch and then the process by a signal noted after
// the last write; one that comes later finds its default action again.
func (o *output) exitCheck() {
	if w := o.watch; w != nil {
		o.watch = nil
		// default actions first, so that no signal finds the
		// runtime's handler with nothing asking for it (ignored)
		sigfrom.DefaultAction(w.defaulted...)
		signal.Stop(w.ch)
		close(w.stop)
		<-w.ended
	}
	if s := o.sig.Load(); s != 0 {
		o.signalled(syscall.Signal(s))
	}
}

// signalled writes the complete lines waiting, as long as stdout takes
// them without blocking (PCP's pmval blocked on a full pipe dies where it
// is), and ends the process by s.
func (o *output) signalled(s syscall.Signal) {
	end := bytes.LastIndexByte(o.buf, '\n') + 1
	done := 0
	for done < end && o.err == nil && (o.fd < 0 || writable(o.fd)) {
		n := min(end-done, pipeChunk)
		if done+n < end {
			if k := bytes.LastIndexByte(o.buf[done:done+n], '\n'); k >= 0 {
				n = k + 1
			}
		}
		_, o.err = o.w.Write(o.buf[done : done+n])
		done += n
	}
	die(s)
}

// die ends the process by s with its default action, as PCP's pmval
// ends, so that its parent sees the same status.
func die(s syscall.Signal) { sigfrom.Die(s) }
