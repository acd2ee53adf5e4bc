package pmapi

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// HostKind says how a host specification reaches pmcd.
type HostKind int

const (
	// HostTCP connects to a host name or address on TCP ports.
	HostTCP HostKind = iota
	// HostLocal ("local:") tries pmcd's Unix domain socket first and
	// falls back to localhost on the default ports.
	HostLocal
	// HostUnix ("unix:") uses only the Unix domain socket.
	HostUnix
)

// Host is one host of a specification: a name (or, for HostLocal and
// HostUnix, an absolute socket path) and the ports given for it, none
// meaning the default list (PMCD_PORT).
type Host struct {
	Name  string
	Ports []int
}

// HostSpec is a parsed host specification, PCP's
// "[protocol:][//]host[:port[,port...]][@proxy[:port]][?attr[=value]&...]"
// or "local:[path]" / "unix:[path]" with optional attributes.
type HostSpec struct {
	Kind HostKind
	// Hosts holds pmcd's host first and any pmproxy hosts after it.
	Hosts []Host
	// Attrs are the connection attributes the specification names,
	// by PCP's attribute keys: the protocol ("pcp", "pcps", "local" or
	// "unix" under AttrProtocol, AttrLocal or AttrUnixSock) and any
	// "?name=value" pairs PCP knows. Values are URL-decoded.
	Attrs map[pdu.AttrKey]string
}

// HostSpecError reports a host specification PCP refuses, with libpcp's
// message and the byte offset it points at. It wraps pcp.ErrGeneric, the
// status pmNewContext returns for it.
type HostSpecError struct {
	Spec string
	Pos  int
	Msg  string
}

func (e *HostSpecError) Error() string {
	return fmt.Sprintf("bad host specification %q at offset %d: %s", e.Spec, e.Pos, e.Msg)
}

// Unwrap returns pcp.ErrGeneric.
func (e *HostSpecError) Unwrap() error { return pcp.ErrGeneric }

// Report renders the error as libpcp prints it after "pmNewContext: bad
// host specification": the specification, then a caret under the
// offending byte and the message.
func (e *HostSpecError) Report() string {
	var b strings.Builder
	b.WriteString(e.Spec)
	b.WriteByte('\n')
	for i := 0; i < e.Pos && i < len(e.Spec); i++ {
		c := e.Spec[i]
		if c > ' ' && c < 0x7f {
			c = ' '
		}
		b.WriteByte(c)
	}
	b.WriteString("^ -- ")
	b.WriteString(e.Msg)
	b.WriteByte('\n')
	return b.String()
}

// ParseHostSpec parses a host specification as pmNewContext does. A
// specification naming no host at all parses without error but with no
// Hosts, which NewHostContext reports as pcp.ErrNotHost. The
// specification ends at a NUL, as the C string libpcp is given does.
// "local:" and "unix:" without a path name DefaultSocketPath, as
// libpcp's parser names its default socket; a context given another
// (WithSocketPath, PMCD_SOCKET) parses with that one.
func ParseHostSpec(spec string) (*HostSpec, error) {
	return parseHostSpec(spec, DefaultSocketPath())
}

func parseHostSpec(spec, socket string) (*HostSpec, error) {
	if i := strings.IndexByte(spec, 0); i >= 0 {
		spec = spec[:i] // libpcp sees a C string
	}
	hs := &HostSpec{Attrs: make(map[pdu.AttrKey]string)}
	p := &specParser{spec: spec, socket: socket}
	protoKey, proto := p.protocol()
	var err error
	switch protoKey {
	case pdu.AttrLocal, pdu.AttrUnixSock:
		hs.Kind = HostUnix
		if protoKey == pdu.AttrLocal {
			hs.Kind = HostLocal
		}
		hs.Hosts = []Host{{Name: p.socketPath()}}
	default:
		hs.Hosts, err = p.hosts()
		if err != nil {
			return nil, err
		}
	}
	switch {
	case p.peek() == '?':
		p.pos++
	case p.peek() != 0 && p.peek() != '/':
		return nil, p.fail("unexpected terminal character")
	}
	if protoKey != pdu.AttrNone {
		hs.Attrs[protoKey] = proto
	}
	if err := p.attributes(hs.Attrs); err != nil {
		return nil, err
	}
	return hs, nil
}

type specParser struct {
	spec   string
	pos    int
	socket string // pmcd's socket, for "local:" and "unix:" without a path
}

// peek returns the byte at the cursor, 0 at the end (where C sees the NUL).
func (p *specParser) peek() byte {
	if p.pos >= len(p.spec) {
		return 0
	}
	return p.spec[p.pos]
}

func (p *specParser) fail(msg string) error {
	return &HostSpecError{Spec: p.spec, Pos: p.pos, Msg: msg}
}

func (p *specParser) protocol() (pdu.AttrKey, string) {
	for _, pr := range []struct {
		name string
		key  pdu.AttrKey
	}{
		{"pcp", pdu.AttrProtocol},
		{"pcps", pdu.AttrProtocol},
		{"local", pdu.AttrLocal},
		{"unix", pdu.AttrUnixSock},
	} {
		if strings.HasPrefix(p.spec[p.pos:], pr.name+":") {
			p.pos += len(pr.name) + 1
			for p.peek() == '/' {
				p.pos++
			}
			return pr.key, pr.name
		}
	}
	return pdu.AttrNone, ""
}

// socketPath reads a Unix socket path up to ':', '?' or the end, making
// it absolute; an empty path means pmcd's default socket.
func (p *specParser) socketPath() string {
	start := p.pos
	for p.pos < len(p.spec) && p.spec[p.pos] != ':' && p.spec[p.pos] != '?' {
		p.pos++
	}
	path := p.spec[start:p.pos]
	delimited := p.pos < len(p.spec)
	if path == "" || (delimited && len(path) == 1) {
		path = p.socket
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return path
}

func isHostEnd(c byte) bool {
	return c == ':' || c == '@' || c == 0 || c == '/' || c == '?'
}

// hosts reads "host[:port,...]" chunks separated by '@'.
func (p *specParser) hosts() ([]Host, error) {
	var hosts []Host
	for {
		start := p.pos
		var name string
		if p.peek() == '[' {
			end := strings.IndexByte(p.spec[start+1:], ']')
			if end < 0 {
				p.pos = len(p.spec)
				return nil, p.fail("missing closing ']' for host spec")
			}
			p.pos = start + 1 + end + 1
			if !isHostEnd(p.peek()) {
				return nil, p.fail("extra characters after host spec")
			}
			name = p.spec[start+1 : start+1+end]
			if end == 0 {
				// libpcp's scan steps onto the ']' of empty
				// brackets and takes it as the name
				name = "]"
			}
		} else {
			for !isHostEnd(p.peek()) {
				p.pos++
			}
			name = p.spec[start:p.pos]
		}
		if p.pos == start {
			return hosts, nil
		}
		h := Host{Name: name}
		if p.peek() == ':' {
			p.pos++
			ports, err := p.ports()
			if err != nil {
				return nil, err
			}
			h.Ports = ports
		}
		hosts = append(hosts, h)
		if p.peek() != '@' {
			return hosts, nil
		}
		p.pos++
	}
}

func (p *specParser) ports() ([]int, error) {
	var ports []int
	for {
		start := p.pos
		for p.peek() >= '0' && p.peek() <= '9' {
			p.pos++
		}
		c := p.peek()
		if c != ',' && !isHostEnd(c) || c == ':' {
			return nil, p.fail("non-numeric port")
		}
		if p.pos == start {
			return nil, p.fail("missing port")
		}
		ports = append(ports, atoi(p.spec[start:p.pos]))
		if c != ',' {
			return ports, nil
		}
		p.pos++
	}
}

// atoi converts a run of digits as C's atoi does, wrapping on overflow.
func atoi(digits string) int {
	var n int32
	for i := 0; i < len(digits); i++ {
		n = n*10 + int32(digits[i]-'0')
	}
	return int(n)
}

// attrName is the attribute a name in a host specification stands for.
// A switch, not a map the package's initialisation would build.
func attrName(name string) (pdu.AttrKey, bool) {
	switch name {
	case "compress":
		return pdu.AttrCompress, true
	case "userauth", "authorise", "authorize":
		return pdu.AttrUserAuth, true
	case "user", "username":
		return pdu.AttrUsername, true
	case "realm":
		return pdu.AttrRealm, true
	case "authmeth", "method":
		return pdu.AttrMethod, true
	case "pass", "password":
		return pdu.AttrPassword, true
	case "unix", "unixsock":
		return pdu.AttrUnixSock, true
	case "local":
		return pdu.AttrLocal, true
	case "uid", "userid":
		return pdu.AttrUserID, true
	case "gid", "groupid":
		return pdu.AttrGroupID, true
	case "pid", "processid":
		return pdu.AttrProcessID, true
	case "secure":
		return pdu.AttrSecure, true
	case "container":
		return pdu.AttrContainer, true
	case "exclusive":
		return pdu.AttrExclusive, true
	}
	return 0, false
}

// attributes reads "name[=value]&..." up to '/' or the end. Unknown
// names are skipped, as PCP does; PCP matches at most 31 bytes of a name.
func (p *specParser) attributes(attrs map[pdu.AttrKey]string) error {
	rest := p.spec[p.pos:]
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	if rest == "" {
		return nil
	}
	for _, item := range strings.Split(rest, "&") {
		name, value, hasValue := strings.Cut(item, "=")
		if len(name) > 31 {
			name = name[:31]
		}
		key, ok := attrName(name)
		if !ok {
			continue
		}
		if hasValue {
			v, ok := urlDecode(value)
			if !ok {
				return fmt.Errorf("attribute %q: bad URL encoding %q: %w", name, value, pcp.Error(-int32(syscall.EINVAL)))
			}
			value = v
		}
		attrs[key] = value
	}
	return nil
}

// urlDecode undoes application/x-www-form-urlencoded escapes as PCP does:
// '+' is a space and '%' must start two hex digits.
func urlDecode(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			b.WriteByte(' ')
		case '%':
			if i+3 > len(s) {
				return "", false
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteByte(byte(v))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// urlEncode is PCP's encoding of attribute values: letters, digits and
// "*-._" as they are, a space as '+', anything else as %XX.
func urlEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("*-._", c) >= 0:
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// attrKeyName is PCP's name for an attribute when it prints it, and
// whether the value is printed too. A switch, not a map the package's
// initialisation would build.
func attrKeyName(k pdu.AttrKey) (name string, withValue bool) {
	switch k {
	case pdu.AttrProtocol:
		return "protocol", true
	case pdu.AttrCompress:
		return "compress", false
	case pdu.AttrUserAuth:
		return "userauth", false
	case pdu.AttrUsername:
		return "username", true
	case pdu.AttrAuthname:
		return "authname", false
	case pdu.AttrPassword:
		return "password", true
	case pdu.AttrMethod:
		return "method", true
	case pdu.AttrRealm:
		return "realm", true
	case pdu.AttrSecure:
		return "secure", true
	case pdu.AttrUnixSock:
		return "unixsock", false
	case pdu.AttrLocal:
		return "local", false
	case pdu.AttrUserID:
		return "userid", true
	case pdu.AttrGroupID:
		return "groupid", true
	case pdu.AttrProcessID:
		return "processid", true
	case pdu.AttrContainer:
		return "container", true
	case pdu.AttrExclusive:
		return "exclusive", false
	}
	return "", false
}

// String renders the specification as PCP's __pmUnparseHostAttrsSpec
// does: the protocol, the hosts with their ports, then the attributes
// other than the protocol, here in the order of their keys.
func (hs *HostSpec) String() string {
	var b strings.Builder
	switch {
	case hs.Attrs[pdu.AttrProtocol] != "":
		b.WriteString(hs.Attrs[pdu.AttrProtocol] + "://")
	case hasAttr(hs.Attrs, pdu.AttrUnixSock):
		b.WriteString("unix:/")
	case hasAttr(hs.Attrs, pdu.AttrLocal):
		b.WriteString("local:/")
	}
	for i, h := range hs.Hosts {
		if i > 0 {
			b.WriteByte('@')
		}
		switch {
		case strings.Contains(h.Name, ":"):
			b.WriteString("[" + h.Name + "]")
		default:
			b.WriteString(h.Name)
		}
		for j, port := range h.Ports {
			if j == 0 {
				b.WriteByte(':')
			} else {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatUint(uint64(uint32(port)), 10))
		}
	}
	keys := make([]pdu.AttrKey, 0, len(hs.Attrs))
	for k := range hs.Attrs {
		if k != pdu.AttrProtocol && k != pdu.AttrUnixSock && k != pdu.AttrLocal {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		name, withValue := attrKeyName(k)
		b.WriteString(name)
		if withValue {
			b.WriteString("=" + urlEncode(hs.Attrs[k]))
		}
	}
	return b.String()
}

func hasAttr(attrs map[pdu.AttrKey]string, k pdu.AttrKey) bool {
	_, ok := attrs[k]
	return ok
}
