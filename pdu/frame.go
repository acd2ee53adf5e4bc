package pdu

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/pcp"
)

// ClientMaxLen is the largest PDU pmcd accepts from a client by default,
// PCP's ceiling of 64 KiB (PDU_CHUNK * 64); pmcd's -L option changes it.
// PDUs from pmcd and agents have no such limit in PCP.
const ClientMaxLen = 64 * 1024

// DefaultTimeout is how long PCP waits for a PDU it expects, the default
// of PMCD_REQUEST_TIMEOUT.
const DefaultTimeout = 10 * time.Second

// firstChunk is the most a Reader allocates before the bytes of a PDU
// arrive. Beyond it the buffer grows by doubling as data comes in, so a
// header that lies about its length costs no more memory than the bytes
// the peer really sends.
const firstChunk = 64 * 1024

// Reader reads whole PDUs from a stream into a buffer it reuses.
//
// A Reader is not safe for concurrent use: one goroutine reads a stream.
// It never reads past the PDU it returns, so a stream may change hands
// between Readers (after a handshake, say) without losing bytes.
type Reader struct {
	// MaxLen is the largest PDU accepted, header included: a longer one
	// is refused with pcp.ErrTooBig before its body is read. Zero or less
	// accepts any length a header can hold, as PCP does for PDUs from
	// pmcd and agents; a server reading clients sets ClientMaxLen.
	MaxLen int
	// Timeout bounds the time to read one PDU, as PCP's request timeout
	// does; exceeding it gives pcp.ErrTimeout. Zero means no limit.
	Timeout time.Duration
	// IdleWait starts the Timeout at the first byte of a PDU instead of
	// at the call, as pmcd waits on an idle client without limit but
	// times the PDU once it begins.
	IdleWait bool
	// KeepDeadline lets the Reader leave a read deadline on the stream
	// between PDUs, which saves two changes of a runtime timer per PDU on
	// a busy stream (see deadline). Set it only when nothing else reads
	// the stream or sets its read deadline.
	KeepDeadline bool

	r     io.Reader
	buf   []byte
	box   *pooledBuf // what buf came in from the pool, for Release
	armed time.Time  // the read deadline on the stream
	dl    deadline   // the current call's, kept here to save an allocation
}

// NewReader returns a Reader on r that accepts any length and bounds each
// read by timeout (zero: no limit). Clients pass their request timeout
// (pmapi's WithRequestTimeout, whose edge reads $PMCD_REQUEST_TIMEOUT);
// pdu itself reads no environment. The deadlines only work when r has a
// SetReadDeadline method, as a net.Conn does.
func NewReader(r io.Reader, timeout time.Duration) *Reader {
	return &Reader{r: r, Timeout: timeout}
}

// ParseRequestTimeout reads $PMCD_REQUEST_TIMEOUT's value as libpcp
// does (getopt.EnvTimeout): seconds as C's strtod reads the whole value
// (white space before it, hex, exponents; the empty value is zero),
// rounded to the microsecond. A value strtod does not take whole, a
// negative number or a NaN gives DefaultTimeout, where libpcp warns
// (RequestTimeoutWarning) and ignores it. Zero, or more than a Duration
// holds, means no limit here (libpcp's own zero gives up at once where
// it waits the exact value: ParseRequestWaits). Clients take it as an option
// (pmapi.WithRequestTimeout) from the edge that reads the environment
// (internal/pmapienv).
func ParseRequestTimeout(v string) time.Duration {
	if d, ok := getopt.EnvTimeout(v); ok {
		return d
	}
	return DefaultTimeout
}

// ParseRequestWaits reads $PMCD_REQUEST_TIMEOUT's value as libpcp's
// host contexts use it, as two waits. request, for the reply to each
// request, is the value's whole seconds, zero meaning no limit: libpcp
// keeps the wait as an int of seconds once connected, and its zero is
// no timeout. traverse, for the reply to a namespace traversal, is the
// exact value (ParseRequestTimeout), which libpcp reads that reply with;
// zero there is a zero wait, failing at once. exact is false when
// traverse is not a wait of its own: a value past a Duration's reach (no
// limit for both) or one libpcp ignores (DefaultTimeout for both).
func ParseRequestWaits(v string) (request, traverse time.Duration, exact bool) {
	d, ok := getopt.EnvTimeout(v)
	if !ok {
		return DefaultTimeout, DefaultTimeout, false
	}
	if secs, _, _ := pcp.Strtod(v); d == 0 && secs >= 1 {
		return 0, 0, false
	}
	return d.Truncate(time.Second), d, true
}

// RequestTimeoutWarning is the warning libpcp writes (pmNotifyErr,
// LOG_WARNING) the first time it looks for the request timeout, when
// ParseRequestTimeout ignores $PMCD_REQUEST_TIMEOUT's value; "" when the
// value is taken.
func RequestTimeoutWarning(v string) string {
	if _, ok := getopt.EnvTimeout(v); ok {
		return ""
	}
	return "ignored bad PMCD_REQUEST_TIMEOUT = '" + v + "'"
}

type readDeadliner interface {
	SetReadDeadline(time.Time) error
}

type writeDeadliner interface {
	SetWriteDeadline(time.Time) error
}

// longAgo is a deadline in the past, which interrupts a blocked read or
// write at once. A function rather than a variable, which the package's
// initialisation would have to compute in every program.
func longAgo() time.Time { return time.Unix(1, 0) }

// ReadPDU reads the next PDU, header included. The slice is the Reader's
// buffer: it stays valid only until the next ReadPDU or Release.
//
// At the end of the stream before a PDU begins it returns io.EOF; a
// stream that ends inside a PDU gives an error wrapping both
// io.ErrUnexpectedEOF and pcp.ErrIPC. A header length under 12 or a
// negative type is pcp.ErrIPC, a length over MaxLen pcp.ErrTooBig. When
// ctx is done the read is interrupted and the error wraps ctx.Err() (and
// pcp.ErrTimeout too if ctx's deadline passed). It sets the stream's read
// deadline only while it reads, and leaves none behind unless
// KeepDeadline is set.
func (r *Reader) ReadPDU(ctx context.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, ctxError(err, "reading PDU")
	}
	dl, _ := r.r.(readDeadliner)
	ctxDeadline, hasCtxDeadline := ctx.Deadline()
	var d *deadline
	if dl != nil && (r.Timeout > 0 || hasCtxDeadline || ctx.Done() != nil) {
		d = &r.dl
		d.init(ctx, r.KeepDeadline, r.Timeout/2, &r.armed)
		d.rd = dl
		if hasCtxDeadline {
			d.target = ctxDeadline
		}
		if r.Timeout > 0 && !r.IdleWait {
			d.target = earlier(d.target, time.Now().Add(r.Timeout))
		}
		defer d.done()
		if ctx.Done() != nil {
			stop := d.watch()
			defer d.unwatch(stop)
		}
	}

	if cap(r.buf) < HeaderSize {
		r.takeBuf()
	}
	buf := r.buf[:HeaderSize]
	have := 0
	if d != nil && r.Timeout > 0 && r.IdleWait {
		// Wait without the timeout for the first byte only.
		n, err := r.fill(d, buf, 1)
		have = n
		if err != nil {
			return nil, r.readError(ctx, err, have, HeaderSize, "header")
		}
		d.target = time.Now().Add(r.Timeout)
		if hasCtxDeadline {
			d.target = earlier(ctxDeadline, d.target)
		}
	}
	if have < HeaderSize {
		n, err := r.fill(d, buf[have:], HeaderSize-have)
		have += n
		if err != nil {
			return nil, r.readError(ctx, err, have, HeaderSize, "header")
		}
	}
	h, err := ParseHeader(buf)
	if err != nil {
		return nil, fmt.Errorf("pdu: illegal PDU length %d in header: %w", h.Len, pcp.ErrIPC)
	}
	if r.MaxLen > 0 && int(h.Len) > r.MaxLen {
		return nil, fmt.Errorf("pdu: %v PDU length %d exceeds maximum %d: %w", h.Type, h.Len, r.MaxLen, pcp.ErrTooBig)
	}
	if h.Type < 0 {
		return nil, fmt.Errorf("pdu: illegal PDU type %d in header: %w", int32(h.Type), pcp.ErrIPC)
	}
	need := int(h.Len)
	for have < need {
		if have == cap(buf) {
			grown := make([]byte, have, min(need, max(2*cap(buf), firstChunk)))
			copy(grown, buf[:have])
			buf = grown
		}
		end := min(need, cap(buf))
		n, err := r.fill(d, buf[have:end], end-have)
		have += n
		if err != nil {
			return nil, r.readError(ctx, err, have, need, h.Type.String()+" body")
		}
	}
	r.buf = buf[:0]
	return buf[:need], nil
}

// fill reads at least atLeast bytes into p, with deadline d (nil: none)
// set only when the stream may have to wait for them.
func (r *Reader) fill(d *deadline, p []byte, atLeast int) (int, error) {
	n := 0
	for {
		if d != nil {
			if b, ok := r.r.(buffered); !ok || b.Buffered() < atLeast-n {
				d.arm()
			}
		}
		m, err := io.ReadAtLeast(r.r, p[n:], atLeast-n)
		n += m
		if err == nil || d == nil || !d.early(err) {
			return n, err
		}
	}
}

// buffered is a source that can say how many bytes it holds already, as
// a bufio.Reader can: reading no more than those never waits.
type buffered interface{ Buffered() int }

// readError classifies a failed read of want bytes of which have came.
func (r *Reader) readError(ctx context.Context, err error, have, want int, part string) error {
	switch {
	case ctxDone(ctx, err) != nil:
		return ctxError(ctxDone(ctx, err), fmt.Sprintf("reading PDU %s (%d of %d bytes)", part, have, want))
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("pdu: timeout after %v reading PDU %s (%d of %d bytes): %w", r.Timeout, part, have, want, pcp.ErrTimeout)
	case err == io.EOF && have == 0:
		return io.EOF
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return fmt.Errorf("pdu: end of stream in PDU %s (%d of %d bytes): %w: %w", part, have, want, io.ErrUnexpectedEOF, pcp.ErrIPC)
	}
	return fmt.Errorf("pdu: reading PDU %s (%d of %d bytes): %w", part, have, want, err)
}

// ctxDone returns why ctx is done, counting as done a context whose
// deadline has passed when the I/O deadline set from it fired first.
func ctxDone(ctx context.Context, ioErr error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && errors.Is(ioErr, os.ErrDeadlineExceeded) && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

// ctxError reports a done context; a passed deadline is also a PCP timeout.
func ctxError(err error, doing string) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("pdu: %s: %w: %w", doing, err, pcp.ErrTimeout)
	}
	return fmt.Errorf("pdu: %s: %w", doing, err)
}

func earlier(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}

// Writer sends whole PDUs on a stream.
//
// A Writer is safe for concurrent use: each PDU is written whole, never
// interleaved with another, and deadlines of concurrent calls do not mix.
type Writer struct {
	// Timeout bounds the time to send one PDU; exceeding it gives
	// pcp.ErrTimeout. Zero means no limit. PCP itself never times a send.
	Timeout time.Duration
	// KeepDeadline lets the Writer leave a write deadline on the stream
	// between PDUs, as Reader.KeepDeadline does for reads. Set it only
	// when nothing else writes the stream or sets its write deadline.
	KeepDeadline bool

	mu    sync.Mutex
	w     io.Writer
	buf   []byte
	armed time.Time // the write deadline on the stream; under mu
	dl    deadline  // the current call's; under mu
}

// NewWriter returns a Writer on w without a timeout. Deadlines only work
// when w has a SetWriteDeadline method, as a net.Conn does.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w}
}

// WritePDU sends one encoded PDU, which must be whole: its header's length
// must be len(pdu).
func (w *Writer) WritePDU(ctx context.Context, pdu []byte) error {
	h, err := ParseHeader(pdu)
	if err != nil {
		return err
	}
	if int(h.Len) != len(pdu) {
		return fmt.Errorf("pdu: writing %v PDU: header length %d but %d bytes: %w", h.Type, h.Len, len(pdu), pcp.ErrIPC)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.write(ctx, pdu, h.Type)
}

// WriteMessage encodes m with sender from into the Writer's own buffer
// and sends it; it does not allocate once the buffer has grown.
func (w *Writer) WriteMessage(ctx context.Context, m Message, from int32) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = m.Append(w.buf[:0], from)
	return w.write(ctx, w.buf, m.PDUType())
}

func (w *Writer) write(ctx context.Context, pdu []byte, t Type) error {
	if err := ctx.Err(); err != nil {
		return ctxError(err, "writing "+t.String()+" PDU")
	}
	dl, _ := w.w.(writeDeadliner)
	ctxDeadline, hasCtxDeadline := ctx.Deadline()
	var d *deadline
	if dl != nil && (w.Timeout > 0 || hasCtxDeadline || ctx.Done() != nil) {
		d = &w.dl
		d.init(ctx, w.KeepDeadline, w.Timeout/2, &w.armed)
		d.wd = dl
		if hasCtxDeadline {
			d.target = ctxDeadline
		}
		if w.Timeout > 0 {
			d.target = earlier(d.target, time.Now().Add(w.Timeout))
		}
		defer d.done()
		if ctx.Done() != nil {
			stop := d.watch()
			defer d.unwatch(stop)
		}
	}
	n := 0
	var err error
	for {
		if d != nil {
			d.arm()
		}
		var m int
		m, err = w.w.Write(pdu[n:])
		n += m
		if err == nil && n != len(pdu) {
			err = io.ErrShortWrite
		}
		if err == nil {
			return nil
		}
		if d == nil || !d.early(err) {
			break
		}
	}
	switch {
	case ctxDone(ctx, err) != nil:
		return ctxError(ctxDone(ctx, err), fmt.Sprintf("writing %v PDU (%d of %d bytes)", t, n, len(pdu)))
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("pdu: timeout after %v writing %v PDU (%d of %d bytes): %w", w.Timeout, t, n, len(pdu), pcp.ErrTimeout)
	}
	return fmt.Errorf("pdu: writing %v PDU (%d of %d bytes): %w", t, n, len(pdu), err)
}
