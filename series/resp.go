package series

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// rawConn sends pipelines to one Redis server in RESP itself: a load's
// commands are all strings, and building go-redis's command values for
// each was half of the loader's CPU. Used for a single server; a cluster
// goes through go-redis, which routes by slot.
type rawConn struct {
	addr string
	c    net.Conn
	r    *bufio.Reader
	out  []byte // commands encoded, written every outFlush bytes
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
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", rc.addr)
	if err != nil {
		return err
	}
	rc.c, rc.r = c, bufio.NewReaderSize(c, 64<<10)
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
	if err != nil {
		rc.close()
		if errors.As(err, &re) {
			return dups, fmt.Errorf("%w: %s", ErrRedis, err)
		}
		return dups, fmt.Errorf("%w: %v", ErrRedis, err)
	}
	return dups, nil
}

type replyError struct{ cmd, key, msg string }

func (e replyError) Error() string { return e.cmd + " " + e.key + ": " + e.msg }

func (rc *rawConn) try(ctx context.Context, cmds [][]string) (int, error) {
	if err := rc.dial(ctx); err != nil {
		return 0, err
	}
	deadline := time.Now().Add(rawTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	rc.c.SetDeadline(deadline)
	// Cancelling ctx (pmproxy shutting down) ends a round trip at once
	// instead of at the deadline: a Redis that hangs would otherwise
	// hold the shutdown for rawTimeout.
	c := rc.c
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	out := rc.out[:0]
	for _, a := range cmds {
		out = append(out, '*')
		out = strconv.AppendInt(out, int64(len(a)), 10)
		out = append(out, '\r', '\n')
		for _, s := range a {
			out = append(out, '$')
			out = strconv.AppendInt(out, int64(len(s)), 10)
			out = append(out, '\r', '\n')
			out = append(out, s...)
			out = append(out, '\r', '\n')
		}
		if len(out) >= outFlush {
			if _, err := rc.c.Write(out); err != nil {
				return 0, err
			}
			out = out[:0]
		}
	}
	if len(out) > 0 {
		if _, err := rc.c.Write(out); err != nil {
			return 0, err
		}
	}
	if cap(out) <= 4*outFlush { // one enormous argument's room is not kept
		rc.out = out[:0]
	}
	dups := 0
	var first error
	for _, a := range cmds {
		msg, err := rc.reply()
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
			first = replyError{a[0], key(a), msg}
		}
	}
	return dups, first
}

// reply reads one reply, returning an error reply's text ("" for any
// other reply).
func (rc *rawConn) reply() (string, error) {
	line, err := rc.line()
	if err != nil {
		return "", err
	}
	if len(line) == 0 {
		return "", fmt.Errorf("empty reply line")
	}
	switch line[0] {
	case '+', ':':
		return "", nil
	case '-':
		return line[1:], nil
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil {
			return "", fmt.Errorf("bad bulk length %q", line)
		}
		if n < 0 {
			return "", nil
		}
		if n > 512<<20 {
			return "", fmt.Errorf("bulk reply of %d bytes", n)
		}
		_, err = io.CopyN(io.Discard, rc.r, int64(n)+2)
		return "", err
	case '*':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n > 1<<20 {
			return "", fmt.Errorf("bad array length %q", line)
		}
		for i := 0; i < n; i++ {
			if _, err := rc.reply(); err != nil {
				return "", err
			}
		}
		return "", nil
	}
	return "", fmt.Errorf("unexpected reply %q", line)
}

func (rc *rawConn) line() (string, error) {
	b, err := rc.r.ReadSlice('\n')
	if err != nil {
		return "", err
	}
	if len(b) < 2 || b[len(b)-2] != '\r' {
		return "", fmt.Errorf("malformed reply line")
	}
	return string(b[:len(b)-2]), nil
}
