package pmapi

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// SASL statuses libpcp passes on as pcp.ErrNYI plus the status (so that
// pcp.ErrorText gives "Authentication - " and Cyrus SASL's words).
const (
	saslFail     = -1  // SASL_FAIL
	saslNoMech   = -4  // SASL_NOMECH: no mechanism in common
	saslBadProt  = -5  // SASL_BADPROT: the server broke the mechanism's protocol
	saslBadParam = -7  // SASL_BADPARAM: no user name (libpcp would prompt)
	saslBadAuth  = -13 // SASL_BADAUTH: the server failed to prove itself
)

// saslError is how libpcp reports a SASL status.
func saslError(status int32) pcp.Error { return pcp.ErrNYI + pcp.Error(status) }

// saslService is the service name libpcp and pmcd give SASL
// (SECURE_SERVER_SASL_SERVICE); DIGEST-MD5's digest-uri begins with it.
const saslService = "PCP Collector"

// maxAuthSteps bounds the challenges one exchange may take: the longest of
// the mechanisms here (SCRAM, DIGEST-MD5) needs three.
const maxAuthSteps = 8

// saslCreds are what a host specification gives SASL: the attributes
// username, password, realm and method, and the host name the
// connection was made to (DIGEST-MD5 names it in its digest-uri).
type saslCreds struct {
	user, pass, realm string
	hasRealm          bool
	host              string
}

// mechanism is one SASL client mechanism, as Cyrus SASL's client plugins
// behave: start gives the initial response (nil: none), step answers
// each server challenge; done says the client side is complete.
type mechanism interface {
	start() (out []byte, done bool, err error)
	step(in []byte) (out []byte, done bool, err error)
}

// mechanisms are the client mechanisms this package has, in the order of
// preference of Debian's Cyrus SASL 2.1.28 client plugins (as
// saslpluginviewer lists them): the first that both sides have is used.
var mechanisms = []struct {
	name string
	new  func(c saslCreds) mechanism
}{
	{"SCRAM-SHA-512", newSCRAM512},
	{"SCRAM-SHA-384", newSCRAM384},
	{"SCRAM-SHA-256", newSCRAM256},
	{"SCRAM-SHA-224", newSCRAM224},
	{"SCRAM-SHA-1", newSCRAM1},
	{"DIGEST-MD5", newDigestMD5},
	{"CRAM-MD5", newCRAMMD5},
	{"PLAIN", newPlain},
	{"LOGIN", newLogin},
}

// splitMechs splits a mechanism list as Cyrus SASL does: names are runs
// of letters, digits, '-' and '_', anything else separates them;
// channel-binding ("-PLUS") names are left out, as without channel
// bindings.
func splitMechs(list string) []string {
	names := strings.FieldsFunc(list, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	})
	out := names[:0]
	for _, n := range names {
		if len(n) > 5 && strings.EqualFold(n[len(n)-5:], "-PLUS") {
			continue
		}
		out = append(out, n)
	}
	return out
}

// chooseMechanism picks from list (the server's, or the user's method
// attribute in its place, as libpcp gives it) the mechanism Cyrus SASL
// would: the most preferred client mechanism named there.
func chooseMechanism(list string) (string, func(saslCreds) mechanism, error) {
	names := splitMechs(list)
	for _, m := range mechanisms {
		for _, n := range names {
			if strings.EqualFold(n, m.name) {
				return m.name, m.new, nil
			}
		}
	}
	return "", nil, fmt.Errorf("no mechanism in common with %q: %w", list, saslError(saslNoMech))
}

// needsAuth reports whether a connection must authenticate after its
// CREDS, as libpcp decides: where pmcd demands credentials, unless the
// specification is a unix: socket's (pmcd reads its peer's credentials,
// and neither side speaks SASL then, even when asked to), else when the
// client asked for authentication. ("local:" is not "unix:": libpcp then
// waits for a mechanism list a pmcd on its socket never sends.)
func needsAuth(sent pdu.Flags, hs *HostSpec) bool {
	if sent&pdu.FlagCredsReqd != 0 {
		return !hasAttr(hs.Attrs, pdu.AttrUnixSock)
	}
	return sent&pdu.FlagAuth != 0
}

// saslHost is the server name libpcp gives SASL: the host name the
// specification connects to, or this machine's name for a Unix socket
// and for names beginning "local" (localhost too).
func saslHost(network, addr string) string {
	host := addr
	if network == "tcp" {
		if h, _, err := net.SplitHostPort(addr); err == nil {
			host = h
		}
	}
	if network != "tcp" || strings.HasPrefix(host, "/") || strings.HasPrefix(host, "local") {
		if name, err := os.Hostname(); err == nil {
			return name
		}
	}
	return host
}

// authenticate is the client's SASL exchange with pmcd, after the CREDS
// PDU, as libpcp's does: pmcd lists its mechanisms in an AUTH (ATTR)
// PDU; the client names the one it chose with its initial response after
// a NUL, then answers each challenge until its side is complete (an
// empty AUTH PDU acknowledges the last). An ERROR PDU from pmcd ends it
// with pmcd's status. A mechanism that completes without a challenge
// (PLAIN) learns pmcd's verdict from its first request's reply, as with
// libpcp. Nothing past the exchange's own PDUs is read.
func authenticate(ctx context.Context, conn io.ReadWriter, timeout time.Duration, hs *HostSpec, host, console string) (in, out int, err error) {
	r := pdu.NewReader(conn, timeout)
	w := pdu.NewWriter(conn)
	w.Timeout = timeout
	list, err := readAuth(ctx, r)
	if err != nil {
		return 1, 0, err
	}
	in = 1
	method := string(list)
	if m, ok := hs.Attrs[pdu.AttrMethod]; ok {
		method = m
	}
	name, newMech, err := chooseMechanism(method)
	if err != nil {
		return in, out, err
	}
	user, hasUser := hs.Attrs[pdu.AttrUsername]
	if !hasUser {
		// what libpcp asks on the console (WithConsole), else SASL's
		// answer to the missing name
		if user, hasUser = askConsole(console, "Username: ", false); !hasUser {
			return in, out, fmt.Errorf("%s needs a user name (?username=): %w", name, saslError(saslBadParam))
		}
	}
	user, ok := canonUser(user)
	if !ok {
		return in, out, fmt.Errorf("%s: all-whitespace user name: %w", name, saslError(saslFail))
	}
	pass, hasPass := hs.Attrs[pdu.AttrPassword]
	if !hasPass {
		pass, _ = askConsole(console, "Password: ", true)
	}
	creds := saslCreds{user: user, pass: pass, host: host}
	creds.realm, creds.hasRealm = hs.Attrs[pdu.AttrRealm]
	mech := newMech(creds)
	initial, done, err := mech.start()
	if err != nil {
		return in, out, err
	}
	first := append([]byte(name), 0)
	first = append(first, initial...)
	// libpcp's bounds: E2BIG past LIMIT_AUTH_PDU, PM_ERR_IPC at it (as
	// for any AUTH PDU it sends of that length or more)
	switch {
	case len(first) > pdu.MaxAuthLen:
		return in, out, fmt.Errorf("%s initial response of %d bytes: %w", name, len(initial), pcp.Error(-int32(syscall.E2BIG)))
	case len(first) == pdu.MaxAuthLen:
		return in, out, fmt.Errorf("%s initial response of %d bytes: %w", name, len(initial), pcp.ErrIPC)
	}
	if err := w.WriteMessage(ctx, &pdu.Attr{Key: pdu.AttrNone, Value: first}, 0); err != nil {
		return in, out, err
	}
	out++
	for steps := 0; !done; steps++ {
		if steps == maxAuthSteps {
			return in, out, fmt.Errorf("%s: more than %d challenges: %w", name, maxAuthSteps, saslError(saslBadProt))
		}
		challenge, err := readAuth(ctx, r)
		in++
		if err != nil {
			return in, out, err
		}
		var resp []byte
		resp, done, err = mech.step(challenge)
		if err != nil {
			return in, out, fmt.Errorf("%s: %w", name, err)
		}
		if len(resp) >= pdu.MaxAuthLen {
			return in, out, fmt.Errorf("%s response of %d bytes, limit %d: %w", name, len(resp), pdu.MaxAuthLen-1, pcp.ErrIPC)
		}
		if err := w.WriteMessage(ctx, &pdu.Attr{Key: pdu.AttrNone, Value: resp}, 0); err != nil {
			return in, out, err
		}
		out++
	}
	return in, out, nil
}

// canonUser trims a user name as Cyrus SASL's canonicalization does,
// refusing it as SASL does: when as many blanks led as non-blank bytes
// remain (so "" is refused, " " becomes "").
func canonUser(s string) (string, bool) {
	lead := len(s) - len(strings.TrimLeftFunc(s, isCSpace))
	user := strings.TrimRightFunc(s[lead:], isCSpace)
	return user, lead != len(user)
}

// isCSpace is C's isspace in the C locale.
func isCSpace(r rune) bool {
	return r == ' ' || r >= '\t' && r <= '\r'
}

// readAuth reads one step of the exchange from pmcd: an AUTH PDU's
// payload, or pmcd's status from an ERROR PDU; anything else is
// PM_ERR_IPC, as is a payload of LIMIT_AUTH_PDU bytes or more.
func readAuth(ctx context.Context, r *pdu.Reader) ([]byte, error) {
	b, err := r.ReadPDU(ctx)
	if err == io.EOF {
		return nil, fmt.Errorf("pmcd closed the connection during authentication: %w", pcp.ErrIPC)
	}
	if err != nil {
		return nil, err
	}
	h, _ := pdu.ParseHeader(b)
	switch h.Type {
	case pdu.TypeAttr:
		var m pdu.Attr
		if err := m.Decode(b); err != nil {
			return nil, err
		}
		if len(m.Value) >= pdu.MaxAuthLen {
			return nil, fmt.Errorf("authentication step of %d bytes, limit %d: %w", len(m.Value), pdu.MaxAuthLen-1, pcp.ErrIPC)
		}
		return m.Value, nil
	case pdu.TypeError:
		var e pdu.Error
		if err := e.Decode(b); err != nil {
			return nil, err
		}
		if e.Code >= 0 {
			return nil, fmt.Errorf("pmcd answered authentication with status %d: %w", e.Code, pcp.ErrIPC)
		}
		return nil, pcp.Error(e.Code)
	}
	return nil, &pdu.UnexpectedError{Want: pdu.TypeAttr, Got: h.Type}
}
