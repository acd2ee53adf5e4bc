package pdu

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"sync"
	"time"

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

	r   io.Reader
	buf []byte
}

// NewReader returns a Reader on r with PCP's client-side defaults: any
// length and RequestTimeout. The deadlines only work when r has a
// SetReadDeadline method, as a net.Conn does.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, Timeout: RequestTimeout()}
}

// RequestTimeout is how long PCP programs wait for an expected PDU: the
// seconds in the environment's PMCD_REQUEST_TIMEOUT (fractions allowed),
// else DefaultTimeout, which is also what a value that is not a number of
// seconds gets (PCP warns and ignores it). Zero means no limit here, where
// PCP would give up at once.
func RequestTimeout() time.Duration {
	v, ok := os.LookupEnv("PMCD_REQUEST_TIMEOUT")
	if !ok {
		return DefaultTimeout
	}
	secs, err := strconv.ParseFloat(v, 64)
	if err != nil || secs < 0 || math.IsInf(secs, 0) || math.IsNaN(secs) || secs > math.MaxInt64/float64(time.Second) {
		return DefaultTimeout
	}
	return time.Duration(secs * float64(time.Second))
}

type readDeadliner interface {
	SetReadDeadline(time.Time) error
}

type writeDeadliner interface {
	SetWriteDeadline(time.Time) error
}

// longAgo is a deadline in the past, which interrupts a blocked read or
// write at once.
var longAgo = time.Unix(1, 0)

// ReadPDU reads the next PDU, header included. The slice is the Reader's
// buffer: it stays valid only until the next ReadPDU.
//
// At the end of the stream before a PDU begins it returns io.EOF; a
// stream that ends inside a PDU gives an error wrapping both
// io.ErrUnexpectedEOF and pcp.ErrIPC. A header length under 12 or a
// negative type is pcp.ErrIPC, a length over MaxLen pcp.ErrTooBig. When
// ctx is done the read is interrupted and the error wraps ctx.Err() (and
// pcp.ErrTimeout too if ctx's deadline passed). It sets the stream's read
// deadline only while it reads, and leaves none behind.
func (r *Reader) ReadPDU(ctx context.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, ctxError(err, "reading PDU")
	}
	dl, _ := r.r.(readDeadliner)
	ctxDeadline, hasCtxDeadline := ctx.Deadline()
	timed := dl != nil && (r.Timeout > 0 || hasCtxDeadline || ctx.Done() != nil)
	var timeoutAt time.Time
	if timed {
		var set time.Time
		if hasCtxDeadline {
			set = ctxDeadline
		}
		if r.Timeout > 0 && !r.IdleWait {
			timeoutAt = time.Now().Add(r.Timeout)
			set = earlier(set, timeoutAt)
		}
		// An error means a closed stream, which the read reports.
		dl.SetReadDeadline(set)
		defer dl.SetReadDeadline(time.Time{})
		if ctx.Done() != nil {
			fired := make(chan struct{})
			stop := context.AfterFunc(ctx, func() {
				dl.SetReadDeadline(longAgo)
				close(fired)
			})
			// Wait for a cancellation in progress, so that its past
			// deadline cannot outlive this call.
			defer func() {
				if !stop() {
					<-fired
				}
			}()
		}
	}

	if cap(r.buf) < HeaderSize {
		r.buf = make([]byte, 0, 1024)
	}
	buf := r.buf[:HeaderSize]
	have := 0
	if timed && r.Timeout > 0 && r.IdleWait {
		// Wait without the timeout for the first byte only.
		n, err := io.ReadAtLeast(r.r, buf, 1)
		have = n
		if err != nil {
			return nil, r.readError(ctx, err, have, HeaderSize, "header")
		}
		timeoutAt = time.Now().Add(r.Timeout)
		set := timeoutAt
		if hasCtxDeadline {
			set = earlier(ctxDeadline, timeoutAt)
		}
		// An error means a closed stream, which the read reports.
		dl.SetReadDeadline(set)
		// A cancellation that fired before the deadline was replaced
		// would be lost; restore it.
		if ctx.Err() != nil {
			dl.SetReadDeadline(longAgo)
		}
	}
	if have < HeaderSize {
		n, err := io.ReadFull(r.r, buf[have:])
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
		n, err := io.ReadFull(r.r, buf[have:end])
		have += n
		if err != nil {
			return nil, r.readError(ctx, err, have, need, h.Type.String()+" body")
		}
	}
	r.buf = buf[:0]
	return buf[:need], nil
}

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

	mu  sync.Mutex
	w   io.Writer
	buf []byte
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
	if dl != nil && (w.Timeout > 0 || hasCtxDeadline || ctx.Done() != nil) {
		var set time.Time
		if hasCtxDeadline {
			set = ctxDeadline
		}
		if w.Timeout > 0 {
			set = earlier(set, time.Now().Add(w.Timeout))
		}
		// An error means a closed stream, which the write reports.
		dl.SetWriteDeadline(set)
		defer dl.SetWriteDeadline(time.Time{})
		if ctx.Done() != nil {
			fired := make(chan struct{})
			stop := context.AfterFunc(ctx, func() {
				dl.SetWriteDeadline(longAgo)
				close(fired)
			})
			// Wait for a cancellation in progress, so that its past
			// deadline cannot outlive this call.
			defer func() {
				if !stop() {
					<-fired
				}
			}()
		}
	}
	n, err := w.w.Write(pdu)
	if err == nil && n != len(pdu) {
		err = io.ErrShortWrite
	}
	if err == nil {
		return nil
	}
	switch {
	case ctxDone(ctx, err) != nil:
		return ctxError(ctxDone(ctx, err), fmt.Sprintf("writing %v PDU (%d of %d bytes)", t, n, len(pdu)))
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("pdu: timeout after %v writing %v PDU (%d of %d bytes): %w", w.Timeout, t, n, len(pdu), pcp.ErrTimeout)
	}
	return fmt.Errorf("pdu: writing %v PDU (%d of %d bytes): %w", t, n, len(pdu), err)
}
