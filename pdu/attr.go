package pdu

import "fmt"

// AttrKey names a connection attribute, PCP_ATTR_* in PCP.
type AttrKey int32

// The attribute keys of PCP 6, with PCP's numbers.
const (
	AttrNone      AttrKey = 0  // PCP_ATTR_NONE: a bare payload (SASL exchanges)
	AttrProtocol  AttrKey = 1  // PCP_ATTR_PROTOCOL: "pcp" or "pcps"
	AttrSecure    AttrKey = 2  // PCP_ATTR_SECURE: relaxed or enforced TLS
	AttrCompress  AttrKey = 3  // PCP_ATTR_COMPRESS: no value
	AttrUserAuth  AttrKey = 4  // PCP_ATTR_USERAUTH: no value
	AttrUsername  AttrKey = 5  // PCP_ATTR_USERNAME
	AttrAuthname  AttrKey = 6  // PCP_ATTR_AUTHNAME
	AttrPassword  AttrKey = 7  // PCP_ATTR_PASSWORD
	AttrMethod    AttrKey = 8  // PCP_ATTR_METHOD: SASL mechanism
	AttrRealm     AttrKey = 9  // PCP_ATTR_REALM
	AttrUnixSock  AttrKey = 10 // PCP_ATTR_UNIXSOCK
	AttrUserID    AttrKey = 11 // PCP_ATTR_USERID: uid in decimal
	AttrGroupID   AttrKey = 12 // PCP_ATTR_GROUPID: gid in decimal
	AttrLocal     AttrKey = 13 // PCP_ATTR_LOCAL
	AttrProcessID AttrKey = 14 // PCP_ATTR_PROCESSID: pid in decimal
	AttrContainer AttrKey = 15 // PCP_ATTR_CONTAINER: container name
	AttrExclusive AttrKey = 16 // PCP_ATTR_EXCLUSIVE: deprecated
)

// Limits on an ATTR PDU's value: LIMIT_ATTR_PDU for any attribute and
// LIMIT_AUTH_PDU for one step of a SASL exchange. PCP rejects a value of
// the limit or longer.
const (
	MaxAttrLen = 4096
	MaxAuthLen = 2048
)

// Attr is an ATTR PDU (also called AUTH): one connection attribute with
// its value. Clients send them to pmcd after the handshake (a container
// name, SASL steps) and pmcd forwards each client's to agents that asked
// for them, with the client's number in the header's From.
//
// Value is sent as given, unpadded: the PDU's length need not be a
// multiple of 4. pmcd includes the C string's NUL in the values it
// forwards.
type Attr struct {
	Key   AttrKey
	Value []byte
}

// PDUType returns TypeAttr.
func (*Attr) PDUType() Type { return TypeAttr }

// Append encodes the PDU onto dst.
func (m *Attr) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeAttr, from)
	dst = appendI32(dst, int32(m.Key))
	dst = append(dst, m.Value...)
	return finish(dst, start)
}

// Decode parses an ATTR PDU. Value is a copy: it does not alias pdu.
func (m *Attr) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeAttr)
	m.Key = AttrKey(d.I32("attr"))
	if d.Err == nil && d.Remaining() >= MaxAttrLen {
		d.Fail(d.Off, fmt.Sprintf("value of %d bytes, limit %d", d.Remaining(), MaxAttrLen-1))
	}
	m.Value = append(m.Value[:0], d.Bytes(d.Remaining(), "value")...)
	return d.Done()
}
