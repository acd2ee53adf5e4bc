package pdu

import (
	"bytes"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// Requests of LOG_CONTROL, PM_LOG_* in PCP: the control, which is whether
// the request is mandatory or advisory or only asks (LogEnquire), and the
// state asked for.
const (
	LogOff       = 0  // PM_LOG_OFF
	LogMaybe     = 1  // PM_LOG_MAYBE
	LogOn        = 2  // PM_LOG_ON
	LogMandatory = 11 // PM_LOG_MANDATORY
	LogAdvisory  = 12 // PM_LOG_ADVISORY
	LogEnquire   = 13 // PM_LOG_ENQUIRE
)

// Requests of LOG_REQUEST, LOG_REQUEST_* in PCP, and the two codes pmlc's
// QA commands send to make pmlogger misbehave for tests (QA_* in pmlogger).
const (
	LogRequestNewVolume = 1   // LOG_REQUEST_NEWVOLUME: answered by an ERROR PDU holding the new volume
	LogRequestStatus    = 2   // LOG_REQUEST_STATUS: answered by LOG_STATUS
	LogRequestSync      = 3   // LOG_REQUEST_SYNC: answered by an ERROR PDU holding 0
	LogRequestQAOff     = 100 // QA_OFF
	LogRequestQASleepy  = 101 // QA_SLEEPY: pmlogger sleeps before each later answer
)

// States of a pmlogger's archive in LoggerStatus.State, PM_LOG_STATE_* in
// PCP.
const (
	LogStateNew  = 0 // PM_LOG_STATE_NEW: nothing written yet; Start is zero
	LogStateInit = 1 // PM_LOG_STATE_INIT
)

// LogControl is a LOG_CONTROL PDU, which pmlc sends to pmlogger to change
// or ask (Control LogEnquire) how metrics are logged. Delta is the logging
// interval in milliseconds, 0 for once. Each set names a metric and the
// instances it applies to, none meaning all of them, in PCP's result
// layout with 32-bit values that pmlogger ignores. pmlogger answers with a
// RESULT PDU.
//
//	control | state | delta | set count | { PMID | count | { inst | value } ... } ...
//
// A set's count may be zero or negative, with no instances following.
// Decoded sets have ValFmt pcp.ValInSitu and their values in LVal; a set
// to encode is sent with its NumVal when that is not positive and with
// len(Values) values otherwise.
type LogControl struct {
	Control int32
	State   int32
	Delta   int32
	Sets    []pcp.ValueSet
}

const (
	logVListMin = 8 // PMID and count
	logValSize  = 8 // inst and value
)

// PDUType returns TypeLogControl.
func (*LogControl) PDUType() Type { return TypeLogControl }

// Append encodes the PDU onto dst.
func (m *LogControl) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeLogControl, from)
	dst = appendI32(dst, m.Control)
	dst = appendI32(dst, m.State)
	dst = appendI32(dst, m.Delta)
	dst = appendI32(dst, int32(len(m.Sets)))
	for i := range m.Sets {
		s := &m.Sets[i]
		dst = appendU32(dst, uint32(s.PMID))
		if s.NumVal <= 0 && len(s.Values) == 0 {
			dst = appendI32(dst, s.NumVal)
			continue
		}
		dst = appendI32(dst, int32(len(s.Values)))
		for _, v := range s.Values {
			dst = appendI32(dst, v.Inst)
			dst = appendI32(dst, v.LVal)
		}
	}
	return finish(dst, start)
}

// Decode parses a LOG_CONTROL PDU.
func (m *LogControl) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeLogControl)
	*m = LogControl{Control: d.I32("control"), State: d.I32("state"), Delta: d.I32("delta")}
	n := d.Count(logVListMin, "metric count")
	if d.Err != nil {
		return d.Err
	}
	m.Sets = make([]pcp.ValueSet, n)
	for i := range m.Sets {
		s := &m.Sets[i]
		s.PMID = pcp.PMID(d.U32("pmid"))
		at := d.Off
		s.NumVal = d.I32("value count")
		if d.Err != nil {
			return d.Err
		}
		if s.NumVal <= 0 {
			continue
		}
		if int64(s.NumVal)*logValSize > int64(d.Remaining()) {
			d.Fail(at, fmt.Sprintf("value count %d cannot fit in %d bytes", s.NumVal, d.Remaining()))
			return d.Err
		}
		s.Values = make([]pcp.Value, s.NumVal)
		for j := range s.Values {
			s.Values[j].Inst = d.I32("inst")
			s.Values[j].LVal = d.I32("value")
		}
	}
	return d.Done()
}

// LogRequest is a LOG_REQUEST PDU, a request from pmlc to pmlogger; Request
// is one of the LogRequest* codes.
//
//	request
type LogRequest struct {
	Request int32
}

// PDUType returns TypeLogRequest.
func (*LogRequest) PDUType() Type { return TypeLogRequest }

// Append encodes the PDU onto dst.
func (m *LogRequest) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeLogRequest, from)
	dst = appendI32(dst, m.Request)
	return finish(dst, start)
}

// Decode parses a LOG_REQUEST PDU, which has exactly one length.
func (m *LogRequest) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeLogRequest)
	*m = LogRequest{Request: d.I32("request")}
	return d.Done()
}

// LoggerStatus is what pmlogger reports about itself, PCP's
// __pmLoggerStatus: the times its archive started, was last written and
// now, the archive's state (LogState*), current volume and that volume's
// size in bytes, and the names and time zones of pmcd's host and its own.
// An empty string stands for one pmlogger does not know; it leaves the two
// zoneinfo strings empty.
type LoggerStatus struct {
	Start, Last, Now pcp.Timestamp
	State            int32
	Vol              int32
	Size             int64
	PMCDHost         string // the host name in the archive's label
	PMCDFQDN         string // how pmlogger reaches pmcd, e.g. "localhost:44321"
	PMCDTimezone     string
	PMCDZoneinfo     string
	LoggerTimezone   string
	LoggerZoneinfo   string
}

// LogStatus is a LOG_STATUS PDU, pmlogger's answer to LogRequestStatus from
// a client that announced version 3 of pmlogger's protocol, as pmlc does
// in PCP 6.
//
//	start | last | now | state | vol | size (64 bits) | 6 string lengths |
//	strings | '~' to a multiple of 4
//
// Each time is three words: PCP means the first two to be the 64-bit
// seconds, high word first, but its byte swapping sends them low word
// first from a little-endian host, which is what PCP on x86 sends and so
// what this package writes and reads; then the nanoseconds. The strings,
// in LoggerStatus's order, are NUL-terminated, their lengths counting the
// NUL; an absent one has length 0. PCP rejects any longer than 256.
type LogStatus struct {
	LoggerStatus
}

const (
	logStatusFixedLen = HeaderSize + 3*12 + 4 + 4 + 8 + 6*4
	maxLogStatusStr   = 256 // PM_MAX_HOSTNAMELEN, PM_MAX_TIMEZONELEN, PM_MAX_ZONEINFOLEN
)

// PDUType returns TypeLogStatus.
func (*LogStatus) PDUType() Type { return TypeLogStatus }

func (s *LoggerStatus) strings() [6]*string {
	return [6]*string{&s.PMCDHost, &s.PMCDFQDN, &s.PMCDTimezone, &s.PMCDZoneinfo, &s.LoggerTimezone, &s.LoggerZoneinfo}
}

// Append encodes the PDU onto dst. A string must not contain a NUL byte.
func (m *LogStatus) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeLogStatus, from)
	for _, t := range [3]pcp.Timestamp{m.Start, m.Last, m.Now} {
		dst = appendU32(dst, uint32(t.Sec))
		dst = appendU32(dst, uint32(t.Sec>>32))
		dst = appendI32(dst, t.Nsec)
	}
	dst = appendI32(dst, m.State)
	dst = appendI32(dst, m.Vol)
	dst = appendI64(dst, m.Size)
	strs := m.strings()
	total := 0
	for _, s := range strs {
		n := 0
		if *s != "" {
			n = len(*s) + 1
		}
		total += n
		dst = appendI32(dst, int32(n))
	}
	for _, s := range strs {
		if *s != "" {
			dst = append(dst, *s...)
			dst = append(dst, 0)
		}
	}
	for ; total%4 != 0; total++ {
		dst = append(dst, '~')
	}
	return finish(dst, start)
}

// Decode parses a LOG_STATUS PDU. As PCP does, it takes each string up to
// its first NUL; a string with no NUL in its length is an error.
func (m *LogStatus) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeLogStatus)
	*m = LogStatus{}
	for _, t := range []*pcp.Timestamp{&m.Start, &m.Last, &m.Now} {
		lo := d.U32("seconds")
		hi := d.U32("seconds")
		t.Sec = int64(hi)<<32 | int64(lo)
		t.Nsec = d.I32("nanoseconds")
	}
	m.State = d.I32("state")
	m.Vol = d.I32("volume")
	m.Size = d.I64("size")
	var lens [6]int
	for i := range lens {
		at := d.Off
		lens[i] = int(d.I32("string length"))
		if d.Err == nil && (lens[i] < 0 || lens[i] > maxLogStatusStr) {
			d.Fail(at, fmt.Sprintf("string length %d outside 0..%d", lens[i], maxLogStatusStr))
		}
	}
	total := 0
	for i, s := range m.strings() {
		at := d.Off
		b := d.Bytes(lens[i], "string")
		if d.Err != nil {
			return d.Err
		}
		total += lens[i]
		if len(b) == 0 {
			continue
		}
		nul := bytes.IndexByte(b, 0)
		if nul < 0 {
			d.Fail(at, "string has no NUL")
			return d.Err
		}
		*s = string(b[:nul])
	}
	d.Bytes(align4(total)-total, "padding")
	return d.Done()
}

// LogStatusV2 is a LOG_STATUS_V2 PDU, pmlogger's answer to
// LogRequestStatus from a client of version 2 of its protocol (PCP before
// 6). Its times are 32-bit seconds and microseconds, its strings fixed
// fields, and it has no zoneinfo strings.
//
//	'~~~~' | start | last | now | state | vol | size (64 bits) |
//	host [64] | FQDN [64] | pmcd time zone [40] | pmlogger time zone [40]
//
// Each string is NUL-filled and at most one byte shorter than its field;
// longer ones are cut short on encoding. Encoding also cuts times to
// seconds that fit in 32 bits and to whole microseconds.
type LogStatusV2 struct {
	LoggerStatus
}

const (
	logHostLenV2   = 64 // PM_LOG_MAXHOSTLEN
	logTZLenV2     = 40 // PM_TZ_MAXLEN
	logStatusV2Len = HeaderSize + 4 + 3*8 + 4 + 4 + 8 + 2*logHostLenV2 + 2*logTZLenV2
)

// PDUType returns TypeLogStatusV2.
func (*LogStatusV2) PDUType() Type { return TypeLogStatusV2 }

// Append encodes the PDU onto dst.
func (m *LogStatusV2) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeLogStatusV2, from)
	dst = append(dst, "~~~~"...)
	for _, t := range [3]pcp.Timestamp{m.Start, m.Last, m.Now} {
		dst = appendI32(dst, int32(t.Sec))
		dst = appendI32(dst, t.Nsec/1000)
	}
	dst = appendI32(dst, m.State)
	dst = appendI32(dst, m.Vol)
	dst = appendI64(dst, m.Size)
	dst = appendFixedString(dst, m.PMCDHost, logHostLenV2)
	dst = appendFixedString(dst, m.PMCDFQDN, logHostLenV2)
	dst = appendFixedString(dst, m.PMCDTimezone, logTZLenV2)
	dst = appendFixedString(dst, m.LoggerTimezone, logTZLenV2)
	return finish(dst, start)
}

// Decode parses a LOG_STATUS_V2 PDU, which has exactly one length. A
// microsecond count outside 0..999999 is an error, since no nanosecond
// count would encode back to it.
func (m *LogStatusV2) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeLogStatusV2)
	*m = LogStatusV2{}
	d.Bytes(4, "padding")
	for _, t := range []*pcp.Timestamp{&m.Start, &m.Last, &m.Now} {
		t.Sec = int64(d.I32("seconds"))
		at := d.Off
		usec := d.I32("microseconds")
		if d.Err == nil && (usec < 0 || usec >= 1000000) {
			d.Fail(at, fmt.Sprintf("microseconds %d outside 0..999999", usec))
		}
		t.Nsec = usec * 1000
	}
	m.State = d.I32("state")
	m.Vol = d.I32("volume")
	m.Size = d.I64("size")
	m.PMCDHost = cString(d.Bytes(logHostLenV2, "host"))
	m.PMCDFQDN = cString(d.Bytes(logHostLenV2, "FQDN"))
	m.PMCDTimezone = cString(d.Bytes(logTZLenV2, "pmcd time zone"))
	m.LoggerTimezone = cString(d.Bytes(logTZLenV2, "pmlogger time zone"))
	return d.Done()
}

// appendFixedString appends s in a NUL-filled field of n bytes, cut to
// n-1 bytes as PCP's strncpy leaves it.
func appendFixedString(dst []byte, s string, n int) []byte {
	if len(s) > n-1 {
		s = s[:n-1]
	}
	dst = append(dst, s...)
	for i := len(s); i < n; i++ {
		dst = append(dst, 0)
	}
	return dst
}

// cString copies b up to its first NUL, or all of it if it has none.
func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}
