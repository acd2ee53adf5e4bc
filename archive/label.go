package archive

import (
	"bytes"
	"encoding/binary"

	"github.com/gopcp/gopcp/internal/wire"
	"github.com/gopcp/gopcp/pcp"
)

// Archive format versions and the label's magic, PM_LOG_VERS0? and
// PM_LOG_MAGIC.
const (
	Version2 = 2
	Version3 = 3
	Magic    = 0x50052600
)

// Volume numbers the label of the metadata and index files carry,
// PM_LOG_VOL_META and PM_LOG_VOL_TI.
const (
	VolMeta  = -1
	VolIndex = -2
)

// FeatureQA is the one archive feature bit PCP 6.0.3 knows,
// PM_LOG_FEATURE_QA; other bits make an archive unreadable unless the
// check is turned off.
const FeatureQA uint32 = 1 << 31

// KnownFeatures is PM_LOG_FEATURES.
const KnownFeatures = FeatureQA

// The on-disk label sizes, without the length words around them.
const (
	labelV2Size = 4 + 4 + 8 + 4 + 64 + 40
	labelV3Size = 4 + 4 + 12 + 4 + 4 + 4 + 256 + 256 + 256
)

// Label is an archive file's label record, __pmLogLabel: every file of an
// archive starts with one.
type Label struct {
	Magic    uint32 // Magic | version
	PID      int32  // pmlogger's process
	Start    pcp.Timestamp
	Vol      int32  // volume number, VolMeta or VolIndex
	Features uint32 // version 3 only
	Hostname string
	Timezone string // POSIX TZ of the collection host
	Zoneinfo string // version 3 only: the host's zoneinfo name
}

// Version is the archive format version, 2 or 3.
func (l *Label) Version() int { return int(l.Magic & 0xff) }

// labelSize is __pmLogLabelSize: the label record with its length words.
func labelSize(version int) int {
	if version == Version3 {
		return labelV3Size + 8
	}
	return labelV2Size + 8
}

// DecodeLabel parses the label record at the start of b as
// __pmLogLoadLabel does: a file too short for the length and magic words
// is pcp.ErrNoData, a short one, an
// unknown version or a length that does not match is pcp.ErrLabel.
func DecodeLabel(b []byte) (Label, error) {
	var l Label
	if len(b) < 8 {
		// libpcp's first read wants the length and magic words: any
		// less is the end of file, the empty file's error
		return l, &Error{Code: pcp.ErrNoData, Msg: "file is empty"}
	}
	d := wire.Decoder{B: b, NewError: labelError}
	length := d.U32("label length")
	l.Magic = d.U32("magic")
	var size int
	switch l.Version() {
	case Version3:
		size = labelV3Size
	case Version2:
		size = labelV2Size
	default:
		return l, &Error{Code: pcp.ErrLabel, Offset: 4, Msg: "unsupported label version"}
	}
	if int64(length) != int64(size+8) {
		return l, &Error{Code: pcp.ErrLabel, Msg: "bad label length"}
	}
	if len(b) < size+8 {
		return l, &Error{Code: pcp.ErrLabel, Offset: int64(len(b)), Msg: "short label"}
	}
	l.PID = d.I32("pid")
	l.Start = readStamp(&d, l.Version() == Version2)
	l.Vol = d.I32("volume")
	if l.Version() == Version3 {
		l.Features = d.U32("features")
		d.Skip(4, "reserved")
		l.Hostname = cstring(d.Bytes(256, "hostname"), 255)
		l.Timezone = cstring(d.Bytes(256, "time zone"), 255)
		l.Zoneinfo = cstring(d.Bytes(256, "zoneinfo"), 255)
	} else {
		l.Hostname = cstring(d.Bytes(64, "hostname"), 63)
		l.Timezone = cstring(d.Bytes(40, "time zone"), 39)
	}
	at := d.Off
	if trailer := d.U32("label trailer"); d.Err == nil && trailer != length {
		d.Fail(at, "label trailer does not match its header")
	}
	return l, d.Err
}

// labelError is the wire.Decoder hook of DecodeLabel: pcp.ErrLabel at the
// offset where the label breaks.
func labelError(_ int32, off int, msg string) error {
	return &Error{Code: pcp.ErrLabel, Offset: int64(off), Msg: msg}
}

// AppendLabel encodes l, with its length words, in the layout of its
// version.
func AppendLabel(dst []byte, l *Label) []byte {
	size := labelV2Size
	if l.Version() == Version3 {
		size = labelV3Size
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(size+8))
	at := len(dst)
	dst = append(dst, make([]byte, size)...)
	p := dst[at:]
	binary.BigEndian.PutUint32(p, l.Magic)
	binary.BigEndian.PutUint32(p[4:], uint32(l.PID))
	if l.Version() == Version3 {
		putTimestamp(p[8:], l.Start)
		binary.BigEndian.PutUint32(p[20:], uint32(l.Vol))
		binary.BigEndian.PutUint32(p[24:], l.Features)
		copy(p[32:32+255], l.Hostname)
		copy(p[288:288+255], l.Timezone)
		copy(p[544:544+255], l.Zoneinfo)
	} else {
		binary.BigEndian.PutUint32(p[8:], uint32(l.Start.Sec))
		binary.BigEndian.PutUint32(p[12:], uint32(l.Start.Nsec/1000))
		binary.BigEndian.PutUint32(p[16:], uint32(l.Vol))
		copy(p[20:20+63], l.Hostname)
		copy(p[84:84+39], l.Timezone)
	}
	return binary.BigEndian.AppendUint32(dst, uint32(size+8))
}

// cstring is strndup(b, max) of a NUL-padded field.
func cstring(b []byte, max int) string {
	b = b[:min(len(b), max)]
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

func putTimestamp(b []byte, t pcp.Timestamp) {
	binary.BigEndian.PutUint32(b, uint32(uint64(t.Sec)))
	binary.BigEndian.PutUint32(b[4:], uint32(uint64(t.Sec)>>32))
	binary.BigEndian.PutUint32(b[8:], uint32(t.Nsec))
}
