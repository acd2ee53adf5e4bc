package series

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/cstrtod"
	"github.com/gopcp/gopcp/series/resp"
)

// minRedis is the oldest Redis major version libpcp_web works with.
const minRedis = 5

// ErrOldRedis is a server older than libpcp_web works with: PCP's
// pmseries says so and then does nothing more (waiting for ever).
var ErrOldRedis = errors.New("unsupported redis server")

// Note is a message of libpcp_web's about its set-up: Level is its log
// level's word ("Error", "Bad request", "Bad response"), which PCP's
// pmseries prints as "pmseries: [Level] Msg", every level but Info
// making its exit status 1.
type Note struct{ Level, Msg string }

// SetupSchema is libpcp_web's set-up of a connection that a query or a
// load goes on to use: the server's version checked (INFO SERVER), and
// the schema's (GET pcp:version:schema), which is set when there is none
// (SET pcp:version:schema 2). What it finds amiss is passed to note and
// the set-up goes on, as PCP's does, except for a server too old
// (ErrOldRedis), and a connection lost on the way: a *SlotsError, the
// failure to send the command after it in libpcp_web's words, or after
// the last command a *LostError.
func SetupSchema(ctx context.Context, c resp.Client, note func(Note)) error {
	r, err := c.Do(ctx, "INFO", "SERVER")
	lost := noReply(err)
	switch {
	case lost != "":
		note(Note{"Error", "no redis version reply"})
	case r.Kind == resp.KindBulk:
		if n := serverVersion(r.Str); n != nil {
			note(*n)
			if strings.HasPrefix(n.Msg, "unsupported") {
				return ErrOldRedis
			}
		}
	case r.Kind == resp.KindError:
		note(Note{"Bad request", "redis server version check error: " + r.Str})
	default:
		note(Note{"Error", "unexpected redis server version reply type (" + replyType(r, err) + ")"})
	}
	get := []string{"GET", "pcp:version:schema"}
	if lost != "" {
		return cannotSend(lost, get)
	}
	r, err = c.Do(ctx, get...)
	set := false // a version to set: none there, or 0
	switch lost = noReply(err); {
	case lost != "":
		// no reply is no version yet, for the SET that cannot be sent
		return cannotSend(lost, []string{"SET", "pcp:version:schema", fmt.Sprint(SchemaVersion)})
	case r.Kind == resp.KindBulk:
		v := atoiUnsigned(r.Str)
		if v != 0 && v != SchemaVersion {
			note(Note{"Error", fmt.Sprintf("unsupported series schema (got v%d, expected v%d)", v, SchemaVersion)})
		}
		set = v == 0
	case r.Kind == resp.KindError:
		note(Note{"Bad request", "version check error: " + r.Str})
	case r.Kind == resp.KindNil:
		set = true
	default:
		note(Note{"Error", "unexpected schema version reply type (" + replyType(r, err) + ")"})
	}
	if !set {
		return nil
	}
	r, err = c.Do(ctx, "SET", "pcp:version:schema", fmt.Sprint(SchemaVersion))
	if r.Kind == resp.KindSimple && (r.Str == "OK" || r.Str == "QUEUED") {
		return nil
	}
	msg := "pcp:version:schema setup"
	switch lost = noReply(err); {
	case lost != "":
		msg += "\nRedis acc error: " + lost
	case r.Kind == resp.KindError:
		msg += "\nRedis reply error: " + r.Str
	}
	note(Note{"Bad response", msg})
	if lost != "" {
		// the next command, the run's first, cannot be sent
		return &LostError{Why: lost}
	}
	return nil
}

// LostError is a connection lost at the end of the set-up (the SET of
// the schema's version had no reply): the run's first command cannot be
// sent. Why is hiredis' words for the loss.
type LostError struct{ Why string }

func (e *LostError) Error() string { return "redisSlotsRequestFirstNode: " + e.Why }

// searchSchema is the text index libpcp_web asks RediSearch for at
// set-up when [pmsearch] enabled is true.
var searchSchema = []string{"FT.CREATE", "pcp:text", "SCHEMA",
	"TYPE", "TAG", "SORTABLE",
	"NAME", "TEXT", "WEIGHT", "9", "SORTABLE",
	"INDOM", "TAG",
	"ONELINE", "TEXT", "WEIGHT", "4",
	"HELPTEXT", "TEXT", "WEIGHT", "2"}

// SetupSearch is the last step of libpcp_web's set-up when [pmsearch]
// enabled is true: the text index created (FT.CREATE). Its answer,
// whatever it is (a Redis without the search module refuses the
// command; one with it may have the index already), is passed over
// without a word, as libpcp_web passes it over.
func SetupSearch(ctx context.Context, c resp.Client) {
	_, _ = c.Do(ctx, searchSchema...)
}

// noReply is "" when err is nil or an error reply, else hiredis' words
// for the failure that left a command with no reply.
func noReply(err error) string {
	if err == nil {
		return ""
	}
	if _, ok := resp.ReplyError(err); ok {
		return ""
	}
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "Server closed the connection"
	case errors.Is(err, syscall.ECONNRESET):
		return "Connection reset by peer"
	case errors.Is(err, resp.ErrProtocol):
		return "Protocol error"
	}
	return err.Error()
}

// cannotSend is libpcp_web's failure to send cmd on a connection lost
// (why), which names the command as sent.
func cannotSend(why string, cmd []string) error {
	return &SlotsError{"redisSlotsRequestFirstNode: " + why + " (" + string(resp.AppendCommand(nil, cmd...)) + ")"}
}

// serverVersion checks INFO's text as libpcp_web does: the first line
// that starts with "redis_version:" must hold a number and a dot, and the
// number must be minRedis or more. nil when it passes (or there is no
// such line).
func serverVersion(info string) *Note {
	const key = "redis_version:"
	for l := 0; l < len(info); l++ {
		if strings.HasPrefix(info[l:], key) {
			n, rest := strtoul(info[l+len(key):])
			switch {
			case !strings.HasPrefix(rest, "."):
				return &Note{"Error", "redis server version parse error"}
			case n < minRedis:
				return &Note{"Error", fmt.Sprintf("unsupported redis server (got v%d, expected v%d or above)", n, minRedis)}
			}
			return nil
		}
		// on to the next line; a line's first character is not
		// looked at for its end
		for l++; l < len(info) && info[l] != '\n' && info[l] != 0; l++ {
		}
	}
	return nil
}

// strtoul is C's strtoul(s, &end, 10) (cstrtod.ParseUint) cut to an
// unsigned int, and the text after the number (all of s when there is
// none).
func strtoul(s string) (uint32, string) {
	v, n, _ := cstrtod.ParseUint(s, 10)
	return uint32(v), s[n:]
}

// atoiUnsigned is C's atoi of s (strtol's value, clamped to a long, cut
// to an int) as an unsigned int.
func atoiUnsigned(s string) uint32 {
	v, _, _ := cstrtod.ParseInt(s, 10)
	return uint32(v)
}
