// Package resp is the Redis client of the series code: RESP2 requests
// and replies (and RESP3's reply types, decoded should a server send
// them), a connection with AUTH, a bounded pool of connections to one
// server (Pool), and Redis Cluster (Cluster: CLUSTER SLOTS discovery,
// MOVED, ASK, TRYAGAIN and CLUSTERDOWN followed a bounded number of
// times). Every call takes a context: its deadline and cancellation end
// the call's reads and writes. Replies are decoded within bounds
// (Limits); a malformed one is ErrProtocol and ends its connection.
//
// It replaces go-redis, whose code and the crypto packages it links made
// most of an idle pmproxy's resident binary pages.
package resp

import (
	"errors"
	"strconv"
	"strings"
)

// Kind is the type of a reply.
type Kind uint8

// The reply kinds. RESP3's sets, pushes and attributes are read as
// arrays, its big numbers and verbatim strings as bulk strings.
const (
	KindNil    Kind = iota // $-1, *-1, or RESP3's _
	KindSimple             // +OK
	KindError              // -ERR ...: Value.Str holds the text
	KindInt                // :1
	KindBulk               // $3\r\nabc
	KindArray              // *N, or RESP3's ~N set and >N push
	KindMap                // RESP3's %N: Elems alternate keys and values
	KindDouble             // RESP3's ,1.5 (text in Str)
	KindBool               // RESP3's #t / #f (Int 1 or 0)
)

// Value is one reply.
type Value struct {
	Kind  Kind
	Str   string // simple, bulk, error and double text
	Int   int64
	Elems []Value // array elements; a map's keys and values alternating
}

// IsNil says whether the reply is Redis's nil (a key that is not there).
func (v Value) IsNil() bool { return v.Kind == KindNil }

// Err is the reply as an error: an *Error for an error reply, else nil.
func (v Value) Err() error {
	if v.Kind == KindError {
		return &Error{Msg: v.Str}
	}
	return nil
}

// Text is a string reply's text (simple, bulk, double, or an integer
// written in decimal); ok is false for nil and for aggregates.
func (v Value) Text() (s string, ok bool) {
	switch v.Kind {
	case KindSimple, KindBulk, KindDouble:
		return v.Str, true
	case KindInt, KindBool:
		return strconv.FormatInt(v.Int, 10), true
	}
	return "", false
}

// Integer is an integer reply's value; a string of digits counts too.
func (v Value) Integer() (int64, bool) {
	switch v.Kind {
	case KindInt, KindBool:
		return v.Int, true
	case KindSimple, KindBulk:
		n, err := strconv.ParseInt(v.Str, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// Strings is an aggregate reply's elements as text ("" for a nil or an
// aggregate element); nil for any other reply.
func (v Value) Strings() []string {
	if v.Kind != KindArray && v.Kind != KindMap {
		return nil
	}
	out := make([]string, len(v.Elems))
	for i, e := range v.Elems {
		out[i], _ = e.Text()
	}
	return out
}

// StringMap is a reply of field and value pairs (HGETALL's array, or a
// RESP3 map) as a map; an odd element out is left out.
func (v Value) StringMap() map[string]string {
	s := v.Strings()
	out := make(map[string]string, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		out[s[i]] = s[i+1]
	}
	return out
}

// Error is an error reply, with Redis's text ("ERR unknown command",
// "MOVED 3999 127.0.0.1:6381", "WRONGPASS ...").
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Prefix is the error's first word: its code ("ERR", "MOVED", "NOAUTH").
func (e *Error) Prefix() string {
	p, _, _ := strings.Cut(e.Msg, " ")
	return p
}

// Errors of the client, for errors.Is.
var (
	// ErrProtocol is a reply that breaks RESP or the client's bounds;
	// the connection it came on is closed.
	ErrProtocol = errors.New("resp: malformed reply")
	// ErrClosed is a call on a client that was closed.
	ErrClosed = errors.New("resp: client closed")
	// ErrRedirects is a cluster command redirected more times than the
	// bound.
	ErrRedirects = errors.New("resp: too many cluster redirects")
)

// ReplyError makes err's error reply, if it wraps one, an *Error.
func ReplyError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
