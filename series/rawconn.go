package series

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/series/resp"
)

// rawConn sends a load's pipelines to one Redis server (or cluster node)
// on a connection of its own, encoding the commands itself: a load's
// commands are all strings, its XADDs already encoded when they were
// made, and only its error replies matter (read by resp.Reader.Skip,
// which keeps nothing).
type rawConn struct {
	addr string
	opt  resp.Options // AUTH
	c    *resp.Conn
	out  []byte // commands encoded, written every outFlush bytes
}

// encodedXADD marks a command encoded when it was made: {encodedXADD,
// key, RESP}. A load's XADDs are most of its commands and hold most of
// its arguments; encoding each once into shared blocks saves a string
// header an argument and a second pass over them.
const encodedXADD = "\x00XADD"

func appendBulkBytes(b []byte, s []byte) []byte {
	b = append(b, '$')
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, '\r', '\n')
	b = append(b, s...)
	return append(b, '\r', '\n')
}

// cmdName is a command's name, for errors.
func cmdName(a []string) string {
	if a[0] == encodedXADD {
		return "XADD"
	}
	return a[0]
}

// decodeCommand reads back the arguments of a command encoded by
// resp.AppendBulk, for a client that encodes them itself (resp.Cluster, when
// the cluster's slots moved under a load).
func decodeCommand(enc string) ([]string, error) {
	bad := fmt.Errorf("malformed encoded command")
	line := func() (int, bool) {
		i := strings.Index(enc, "\r\n")
		if i < 2 {
			return 0, false
		}
		n, err := strconv.Atoi(enc[1:i])
		enc = enc[i+2:]
		return n, err == nil && n >= 0
	}
	if len(enc) == 0 || enc[0] != '*' {
		return nil, bad
	}
	n, ok := line()
	if !ok || n > len(enc) {
		return nil, bad
	}
	args := make([]string, 0, n)
	for range n {
		if len(enc) == 0 || enc[0] != '$' {
			return nil, bad
		}
		l, ok := line()
		if !ok || l+2 > len(enc) || enc[l:l+2] != "\r\n" {
			return nil, bad
		}
		args = append(args, enc[:l])
		enc = enc[l+2:]
	}
	if enc != "" {
		return nil, bad
	}
	return args, nil
}

// outFlush is how much encoded pipeline is written at once: a batch is
// megabytes, and each write a system call. Encoding by appending to one
// slice costs less than bufio's calls, five an argument.
const outFlush = 512 << 10

// rawTimeout bounds one pipeline's round trip.
const rawTimeout = 2 * time.Minute

func (rc *rawConn) close() {
	if rc.c != nil {
		rc.c.Close()
		rc.c = nil
	}
}

func (rc *rawConn) dial(ctx context.Context) error {
	if rc.c != nil {
		return nil
	}
	c, err := resp.Dial(ctx, rc.addr, rc.opt)
	if err != nil {
		return err
	}
	rc.c = c
	return nil
}

// pipeline sends cmds and reads their replies, once more on a new
// connection when the first fails on the way (every command of a load may
// be sent twice without harm). It returns the stream entries refused as
// not newer.
func (rc *rawConn) pipeline(ctx context.Context, cmds [][]string) (int, error) {
	dups, err := rc.try(ctx, cmds)
	var re replyError
	if err != nil && !errors.As(err, &re) && ctx.Err() == nil {
		rc.close()
		dups, err = rc.try(ctx, cmds)
	}
	return dups, rc.failed(err)
}

type replyError struct{ cmd, key, msg string }

func (e replyError) Error() string { return e.cmd + " " + e.key + ": " + e.msg }

func (rc *rawConn) try(ctx context.Context, cmds [][]string) (int, error) {
	if err := rc.write(ctx, cmds); err != nil {
		return 0, err
	}
	return rc.read(ctx, cmds)
}

// step writes next and then reads the replies to prev, which the step
// before wrote: Redis has a batch to work on while its replies to the one
// before are read, and never waits for the loader between batches. When
// the connection fails, prev is sent again in full on a new one, and next
// after it.
func (rc *rawConn) step(ctx context.Context, prev, next [][]string) (int, error) {
	var err error
	if len(next) > 0 {
		err = rc.write(ctx, next)
	}
	if err == nil && len(prev) > 0 {
		var dups int
		dups, err = rc.read(ctx, prev)
		var re replyError
		if err == nil || errors.As(err, &re) {
			return dups, rc.failed(err)
		}
	}
	if err == nil {
		return 0, nil
	}
	if ctx.Err() != nil {
		return 0, rc.failed(err)
	}
	rc.close()
	dups := 0
	if len(prev) > 0 {
		if dups, err = rc.pipeline(ctx, prev); err != nil {
			return dups, err
		}
	}
	if len(next) > 0 {
		if err := rc.write(ctx, next); err != nil {
			return dups, rc.failed(err)
		}
	}
	return dups, nil
}

// failed closes the connection after an error, which it wraps.
func (rc *rawConn) failed(err error) error {
	if err == nil {
		return nil
	}
	rc.close()
	var re replyError
	if errors.As(err, &re) {
		return fmt.Errorf("%w: %w", ErrRedis, re)
	}
	return fmt.Errorf("%w: %v", ErrRedis, err)
}

// deadline bounds a write or a read by rawTimeout and ctx. Cancelling ctx
// (pmproxy shutting down) ends it at once instead of at the deadline: a
// Redis that hangs would otherwise hold the shutdown for rawTimeout. The
// function returned stops watching ctx.
func (rc *rawConn) deadline(ctx context.Context) func() bool {
	return rc.c.Deadline(ctx, rawTimeout)
}

// write sends cmds, encoded, dialling first when there is no connection.
func (rc *rawConn) write(ctx context.Context, cmds [][]string) error {
	if err := rc.dial(ctx); err != nil {
		return err
	}
	defer rc.deadline(ctx)()
	out := rc.out[:0]
	for _, a := range cmds {
		if a[0] == encodedXADD {
			out = append(out, a[2]...)
		} else {
			out = resp.AppendCommand(out, a...)
		}
		if len(out) >= outFlush {
			if _, err := rc.c.NetConn().Write(out); err != nil {
				return err
			}
			out = out[:0]
		}
	}
	if len(out) > 0 {
		if _, err := rc.c.NetConn().Write(out); err != nil {
			return err
		}
	}
	if cap(out) <= 4*outFlush { // one enormous argument's room is not kept
		rc.out = out[:0]
	}
	return nil
}

// read reads the replies to cmds, returning how many were stream entries
// refused as not newer, and the first other error reply.
func (rc *rawConn) read(ctx context.Context, cmds [][]string) (int, error) {
	if rc.c == nil {
		return 0, net.ErrClosed
	}
	defer rc.deadline(ctx)()
	dups := 0
	var first error
	for _, a := range cmds {
		msg, err := rc.c.Reader().Skip()
		if err != nil {
			return dups, err
		}
		if msg == "" {
			continue
		}
		if isStreamDupText(msg) {
			dups++
			continue
		}
		if first == nil {
			first = replyError{cmdName(a), key(a), msg}
		}
	}
	return dups, first
}
