package pdu

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// PDUVersion2 is PDU_VERSION2, the protocol version of PCP 2 and later
// and the only one PCP 6 speaks.
const PDUVersion2 = 2

// Flags are the connection features, PDU_FLAG_* in PCP: pmcd advertises
// those it offers in its greeting, and clients and agents ask for theirs
// in a VersionCred.
type Flags uint16

// The feature flags, with PCP's bits.
const (
	FlagSecure    Flags = 1 << 0  // PDU_FLAG_SECURE: TLS
	FlagCompress  Flags = 1 << 1  // PDU_FLAG_COMPRESS: retired, never granted
	FlagAuth      Flags = 1 << 2  // PDU_FLAG_AUTH: SASL authentication
	FlagCredsReqd Flags = 1 << 3  // PDU_FLAG_CREDS_REQD: pmcd demands credentials
	FlagSecureAck Flags = 1 << 4  // PDU_FLAG_SECURE_ACK: pmcd acknowledges a TLS request
	FlagNoNSSInit Flags = 1 << 5  // PDU_FLAG_NO_NSS_INIT: obsolete
	FlagContainer Flags = 1 << 6  // PDU_FLAG_CONTAINER: container attributes
	FlagCertReqd  Flags = 1 << 7  // PDU_FLAG_CERT_REQD: pmcd demands a client certificate
	FlagBadLabel  Flags = 1 << 8  // PDU_FLAG_BAD_LABEL: label PDUs of an old, broken encoding
	FlagLabels    Flags = 1 << 9  // PDU_FLAG_LABELS: LABEL_REQ and LABEL
	FlagHighRes   Flags = 1 << 10 // PDU_FLAG_HIGHRES: HIGHRES_FETCH and HIGHRES_RESULT
	FlagDescs     Flags = 1 << 11 // PDU_FLAG_DESCS: DESC_IDS and DESCS
	pmcdBaseFlags       = FlagDescs | FlagLabels | FlagHighRes
)

var flagNames = []struct {
	f    Flags
	name string
}{
	{FlagSecure, "SECURE"}, {FlagCompress, "COMPRESS"}, {FlagAuth, "AUTH"},
	{FlagCredsReqd, "CREDS_REQD"}, {FlagSecureAck, "SECURE_ACK"},
	{FlagNoNSSInit, "NO_NSS_INIT"}, {FlagContainer, "CONTAINER"},
	{FlagCertReqd, "CERT_REQD"}, {FlagBadLabel, "BAD_LABEL"},
	{FlagLabels, "LABELS"}, {FlagHighRes, "HIGHRES"}, {FlagDescs, "DESCS"},
}

// String lists the flags by PCP's names joined with '|', as pmcd's debug
// output does; unnamed bits are shown in hex.
func (f Flags) String() string {
	s := ""
	for _, n := range flagNames {
		if f&n.f != 0 {
			if s != "" {
				s += "|"
			}
			s += n.name
			f &^= n.f
		}
	}
	if f != 0 || s == "" {
		if s != "" {
			s += "|"
		}
		s += fmt.Sprintf("%#x", uint16(f))
	}
	return s
}

// PDUInfo is what pmcd tells a new client about itself, PCP's
// __pmPDUInfo, carried as the datum of its greeting. On the wire it is one
// big-endian word: a zero bit, 7 bits of version, 8 bits of "licensed"
// (always 1, for PCP 2.x clients that checked it) and 16 bits of features.
type PDUInfo struct {
	Version  uint8 // 7 bits
	Licensed uint8
	Features Flags
}

// Pack returns the wire image of p; the version is cut to 7 bits.
func (p PDUInfo) Pack() uint32 {
	return uint32(p.Version&0x7f)<<24 | uint32(p.Licensed)<<16 | uint32(p.Features)
}

// UnpackPDUInfo is the inverse of Pack; the top bit is ignored.
func UnpackPDUInfo(v uint32) PDUInfo {
	return PDUInfo{Version: uint8(v>>24) & 0x7f, Licensed: uint8(v >> 16), Features: Flags(v)}
}

// PMCDInfo returns the PDUInfo pmcd 6.0.3 sends: version 2, licensed, the
// DESCS, LABELS and HIGHRES features and whichever extra features the
// server offers (FlagSecure|FlagSecureAck, FlagAuth, FlagCredsReqd,
// FlagCertReqd, FlagContainer).
func PMCDInfo(extra Flags) PDUInfo {
	return PDUInfo{Version: PDUVersion2, Licensed: 1, Features: pmcdBaseFlags | extra}
}

// Greeting is the first PDU pmcd sends on a new client connection: an
// extended ERROR whose code is 0 when pmcd accepts the client (else why it
// refuses, such as pcp.ErrPermission or pcp.ErrConnLimit) and whose datum
// is pmcd's PDUInfo (zero on refusal).
type Greeting struct {
	Status int32 // 0 or a PCP error code, in today's numbering
	Info   PDUInfo
}

// Message returns the ERROR PDU carrying g, the status renumbered as PCP
// 1.x did, which is how pmcd still sends it.
func (g Greeting) Message() *Error {
	return &Error{Code: errToV1(g.Status), Datum: g.Info.Pack(), Extended: true}
}

// ParseGreeting reads pmcd's greeting from an ERROR PDU. A short ERROR is
// not a greeting (PCP takes it for a pre-2.0 pmcd and gives up), and
// neither is a version other than 2 from a pmcd that accepted.
func ParseGreeting(m *Error) (Greeting, error) {
	if !m.Extended {
		return Greeting{}, fmt.Errorf("pdu: pmcd greeting is a short ERROR PDU (code %d): %w", m.Code, pcp.ErrIPC)
	}
	g := Greeting{Status: errFromV1(m.Code), Info: UnpackPDUInfo(m.Datum)}
	if g.Status == 0 && g.Info.Version != PDUVersion2 {
		return g, fmt.Errorf("pdu: pmcd greeting offers protocol version %d: %w", g.Info.Version, pcp.ErrIPC)
	}
	return g, nil
}

// eOpNotSupp is how PCP says a requested connection feature is missing.
const eOpNotSupp = pcp.Error(-int32(syscall.EOPNOTSUPP))

// ClientFlags works out the flags a client asks for in its CREDS, given
// the features it wants (FlagSecure, FlagAuth, FlagContainer, FlagCompress)
// and those pmcd offers, as libpcp does: pmcd's demands for credentials
// and (unless local) a certificate are echoed, and a wanted feature pmcd
// lacks is an error. local means a Unix-domain or localhost connection.
func ClientFlags(want, offered Flags, local bool) (Flags, error) {
	var out Flags
	if offered&FlagCredsReqd != 0 {
		out |= FlagCredsReqd
	}
	if offered&FlagCertReqd != 0 && !local {
		out |= FlagCertReqd
		if want&FlagSecure == 0 {
			return 0, pcp.ErrNeedClientCert
		}
	}
	if want&FlagSecure != 0 {
		if offered&FlagSecure == 0 {
			return 0, fmt.Errorf("pdu: pmcd does not offer TLS: %w", eOpNotSupp)
		}
		out |= FlagSecure | offered&FlagSecureAck
	}
	if want&FlagCompress != 0 {
		return 0, fmt.Errorf("pdu: compression is retired: %w", eOpNotSupp)
	}
	if want&FlagAuth != 0 {
		if offered&FlagAuth == 0 {
			return 0, fmt.Errorf("pdu: pmcd does not offer authentication: %w", eOpNotSupp)
		}
		out |= FlagAuth
	}
	if want&FlagContainer != 0 {
		if offered&FlagContainer == 0 {
			return 0, fmt.Errorf("pdu: pmcd does not offer containers: %w", eOpNotSupp)
		}
		out |= FlagContainer
	}
	return out, nil
}

// VersionCreds is the CREDS PDU a client or agent sends to introduce
// itself: one VersionCred for protocol version 2 with the given flags.
func VersionCreds(flags Flags) *Creds {
	return &Creds{Creds: []Cred{VersionCred{Version: PDUVersion2, Flags: flags}.Cred()}}
}

// versionOf finds the version credential in m. pmcd refuses a client's
// credentials of any other type (strict) but ignores an agent's, and so
// does an agent with pmcd's.
func versionOf(m *Creds, strict bool) (VersionCred, error) {
	var v VersionCred
	found := false
	for _, c := range m.Creds {
		vc, ok := c.Version()
		if !ok {
			if strict {
				return VersionCred{}, fmt.Errorf("pdu: credential of unknown type %#x: %w", uint8(c.Type), pcp.ErrIPC)
			}
			continue
		}
		v, found = vc, true
	}
	if !found {
		return VersionCred{}, fmt.Errorf("pdu: CREDS PDU without a version credential: %w", pcp.ErrIPC)
	}
	return v, nil
}

// Handshake is what a client learned connecting to pmcd.
type Handshake struct {
	Greeting Greeting
	// Sent are the flags the client asked for in its CREDS. Each of
	// FlagSecure, FlagAuth and FlagContainer obliges the caller to carry
	// on with TLS, SASL or an ATTR PDU naming the container, as libpcp
	// does; FlagSecureAck means pmcd first answers with an ERROR PDU.
	Sent Flags
}

// ClientHandshake is the client's side of connecting to pmcd: it reads
// the greeting, fails with pmcd's status if pmcd refused, and answers with
// a CREDS PDU (sent from this process's pid) asking for the wanted
// features that pmcd offers. It reads any PDU length, each read bounded by
// timeout (zero: no limit) besides ctx, and reads nothing past the
// greeting, so conn can be handed to a new Reader afterwards.
func ClientHandshake(ctx context.Context, conn io.ReadWriter, want Flags, timeout time.Duration) (Handshake, error) {
	r := NewReader(conn, timeout)
	w := NewWriter(conn)
	return clientHandshake(ctx, r, w, want, isLocal(conn), int32(os.Getpid()))
}

func clientHandshake(ctx context.Context, r *Reader, w *Writer, want Flags, local bool, from int32) (Handshake, error) {
	pdu, err := r.ReadPDU(ctx)
	if err == io.EOF {
		return Handshake{}, fmt.Errorf("pdu: pmcd closed the connection before greeting: %w", pcp.ErrIPC)
	}
	if err != nil {
		return Handshake{}, err
	}
	var e Error
	if err := e.Decode(pdu); err != nil {
		return Handshake{}, fmt.Errorf("pdu: pmcd greeting: %w", err)
	}
	g, err := ParseGreeting(&e)
	if err != nil {
		return Handshake{}, err
	}
	if g.Status < 0 {
		return Handshake{Greeting: g}, pcp.Error(g.Status)
	}
	flags, err := ClientFlags(want, g.Info.Features, local)
	if err != nil {
		return Handshake{Greeting: g}, err
	}
	if err := w.WriteMessage(ctx, VersionCreds(flags), from); err != nil {
		return Handshake{Greeting: g}, err
	}
	return Handshake{Greeting: g, Sent: flags}, nil
}

// isLocal reports a Unix-domain or loopback connection, for which pmcd
// waives its certificate demand. (libpcp asks whether the host name
// contains "localhost"; the address is what a Go connection knows.)
func isLocal(conn io.ReadWriter) bool {
	c, ok := conn.(net.Conn)
	if !ok || c.RemoteAddr() == nil {
		return false
	}
	switch a := c.RemoteAddr().(type) {
	case *net.UnixAddr:
		return true
	case *net.TCPAddr:
		return a.IP.IsLoopback()
	}
	return false
}

// GreetClient is pmcd's side of a new connection: it sends the greeting,
// accepting the client when status is 0. The caller closes the connection
// after greeting a refused client.
func GreetClient(ctx context.Context, w *Writer, status int32, info PDUInfo) error {
	g := Greeting{Status: status, Info: info}
	if status != 0 {
		g.Info = PDUInfo{}
	}
	return w.WriteMessage(ctx, g.Message(), 0)
}

// ClientHello is what a client said in its CREDS PDU.
type ClientHello struct {
	From    int32 // the client's pid, from the header
	Version uint8
	Flags   Flags
}

// AcceptClient reads a greeted client's CREDS PDU, as pmcd does before
// serving it. Any other PDU first, or a credential of unknown type, is
// pcp.ErrIPC.
func AcceptClient(ctx context.Context, r *Reader) (ClientHello, error) {
	m, from, err := readCreds(ctx, r)
	if err != nil {
		return ClientHello{}, err
	}
	v, err := versionOf(m, true)
	if err != nil {
		return ClientHello{}, err
	}
	return ClientHello{From: from, Version: v.Version, Flags: v.Flags}, nil
}

// AgentHandshake is an agent's side of starting up under pmcd: it sends
// its version credential with the given flags (FlagAuth and FlagContainer
// ask pmcd to forward those client attributes), from this process's pid,
// and returns pmcd's answer.
func AgentHandshake(ctx context.Context, r *Reader, w *Writer, flags Flags) (VersionCred, error) {
	return agentHandshake(ctx, r, w, flags, int32(os.Getpid()))
}

func agentHandshake(ctx context.Context, r *Reader, w *Writer, flags Flags, from int32) (VersionCred, error) {
	if err := w.WriteMessage(ctx, VersionCreds(flags), from); err != nil {
		return VersionCred{}, err
	}
	m, _, err := readCreds(ctx, r)
	if err != nil {
		return VersionCred{}, err
	}
	return versionOf(m, false)
}

// AcceptAgent is pmcd's side of an agent starting up: it reads the
// agent's CREDS and answers with pmcd's, version 2 and of the agent's flags
// only FlagAuth, sent from pmcdPID. It returns what the agent asked for.
func AcceptAgent(ctx context.Context, r *Reader, w *Writer, pmcdPID int32) (VersionCred, error) {
	m, _, err := readCreds(ctx, r)
	if err != nil {
		return VersionCred{}, err
	}
	v, err := versionOf(m, false)
	if err != nil {
		return VersionCred{}, err
	}
	if err := w.WriteMessage(ctx, VersionCreds(v.Flags&FlagAuth), pmcdPID); err != nil {
		return v, err
	}
	return v, nil
}

func readCreds(ctx context.Context, r *Reader) (*Creds, int32, error) {
	pdu, err := r.ReadPDU(ctx)
	if err == io.EOF {
		return nil, 0, fmt.Errorf("pdu: connection closed before CREDS: %w: %w", pcp.ErrIPC, io.EOF)
	}
	if err != nil {
		return nil, 0, err
	}
	h, _ := ParseHeader(pdu)
	if h.Type != TypeCreds {
		return nil, 0, &UnexpectedError{Want: TypeCreds, Got: h.Type}
	}
	m := new(Creds)
	if err := m.Decode(pdu); err != nil {
		return nil, 0, err
	}
	return m, h.From, nil
}

// UnexpectedError is a handshake's refusal of a PDU of another type than
// the one it waits for; it wraps pcp.ErrIPC. Got is the type as the header
// gave it (pmcd logs it in hexadecimal, as PCP's does).
type UnexpectedError struct {
	Want, Got Type
}

func (e *UnexpectedError) Error() string {
	return fmt.Sprintf("pdu: expected %v PDU, got %v", e.Want, e.Got)
}

func (e *UnexpectedError) Unwrap() error { return pcp.ErrIPC }
