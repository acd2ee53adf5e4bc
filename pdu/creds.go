package pdu

import "fmt"

// Cred is one credential, PCP's __pmCred: a type and three bytes whose
// meaning depends on it. On the wire it is one big-endian word with the
// type in the top byte.
type Cred struct {
	Type CredType
	A    uint8
	B    uint8
	C    uint8
}

// CredType says what a Cred carries.
type CredType uint8

// CredVersion is CVERSION, the only credential type PCP 6 defines: the
// sender's protocol version and its feature flags (see VersionCred).
const CredVersion CredType = 0x1

// maxCreds is LIMIT_CREDS: PCP rejects a CREDS PDU listing more.
const maxCreds = 1024

// Pack returns the wire image of c.
func (c Cred) Pack() uint32 {
	return uint32(c.Type)<<24 | uint32(c.A)<<16 | uint32(c.B)<<8 | uint32(c.C)
}

// UnpackCred is the inverse of Pack.
func UnpackCred(v uint32) Cred {
	return Cred{Type: CredType(v >> 24), A: uint8(v >> 16), B: uint8(v >> 8), C: uint8(v)}
}

// VersionCred is the CVERSION credential, PCP's __pmVersionCred: the
// protocol version (PDUVersion2) and the feature flags the sender asks for.
// It overlays Cred with the version in A and the flags in B and C.
type VersionCred struct {
	Version uint8
	Flags   Flags
}

// Cred returns v as the generic credential it travels as.
func (v VersionCred) Cred() Cred {
	return Cred{Type: CredVersion, A: v.Version, B: uint8(v.Flags >> 8), C: uint8(v.Flags)}
}

// Version reads c as a version credential; ok is false if c has another
// type.
func (c Cred) Version() (v VersionCred, ok bool) {
	if c.Type != CredVersion {
		return VersionCred{}, false
	}
	return VersionCred{Version: c.A, Flags: Flags(c.B)<<8 | Flags(c.C)}, true
}

// Creds is a CREDS PDU: a list of credentials. Clients and agents send one
// holding a VersionCred right after connecting, and pmcd answers an
// agent's with its own.
type Creds struct {
	Creds []Cred
}

// PDUType returns TypeCreds.
func (*Creds) PDUType() Type { return TypeCreds }

// Append encodes the PDU onto dst. PCP refuses to send an empty list or
// more than 1024 credentials; Append encodes whatever it is given.
func (m *Creds) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeCreds, from)
	dst = appendI32(dst, int32(len(m.Creds)))
	for _, c := range m.Creds {
		dst = appendU32(dst, c.Pack())
	}
	return finish(dst, start)
}

// Decode parses a CREDS PDU, reusing m.Creds' storage. As in PCP, the
// count may be zero but not above 1024, and the PDU must hold exactly that
// many credentials.
func (m *Creds) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeCreds)
	at := d.Off
	n := d.Count(4, "numcreds")
	if d.Err == nil && n > maxCreds {
		d.Fail(at, fmt.Sprintf("numcreds %d exceeds %d", n, maxCreds))
	}
	m.Creds = m.Creds[:0]
	for i := 0; i < n && d.Err == nil; i++ {
		m.Creds = append(m.Creds, UnpackCred(d.U32("cred")))
	}
	return d.Done()
}
