package series

import (
	"errors"

	"github.com/gopcp/gopcp/series/resp"
)

// ReplyError is a Redis reply that is not what a step of a query or
// report expects, or no reply at all (the connection broke, or what
// came was no reply), said as libpcp_web says it: Level is its log
// level's word ("Corrupt TSDB", "Bad response"), Msg the message.
// PCP's pmseries prints it as "pmseries: [Level] Msg" and exits 1.
// Err is the failure that left no reply, if that was it (a context
// ended, the connection broken): kept for errors.Is, not said.
type ReplyError struct {
	Level, Msg string
	Err        error
}

func (e *ReplyError) Error() string { return "[" + e.Level + "] " + e.Msg }

// Unwrap makes a ReplyError a failure talking to Redis, and the
// failure that left no reply.
func (e *ReplyError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrRedis}
	}
	return []error{ErrRedis, e.Err}
}

// replyFailure is err when it is no error reply: a failure that left
// no reply, for ReplyError's Err.
func replyFailure(err error) error {
	if _, ok := resp.ReplyError(err); ok {
		return nil
	}
	return err
}

// replyType is libpcp_web's word for the type of reply v, read with
// err: "none" where there was no reply (hiredis' NULL: an I/O failure,
// a reply that could not be parsed, a context ended).
func replyType(v resp.Value, err error) string {
	var re *resp.Error
	if err != nil && !errors.As(err, &re) {
		return "none"
	}
	switch v.Kind {
	case resp.KindBulk:
		return "string"
	case resp.KindArray:
		return "array"
	case resp.KindInt:
		return "integer"
	case resp.KindNil:
		return "nil"
	case resp.KindSimple:
		return "status"
	case resp.KindError:
		return "error"
	}
	return "unknown"
}
