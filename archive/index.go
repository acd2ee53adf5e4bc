package archive

import (
	"encoding/binary"

	"github.com/gopcp/gopcp/pcp"
)

// IndexEntry is one entry of the temporal index, __pmLogTI: at Stamp the
// data volume Vol ended at DataOffset and the metadata at MetaOffset.
type IndexEntry struct {
	Stamp      pcp.Timestamp
	Vol        int32
	MetaOffset int64
	DataOffset int64
}

// decodeIndex parses a temporal index file after its label. A partial
// entry at the end is ignored, as libpcp ignores it.
func decodeIndex(b []byte, version int) []IndexEntry {
	off := labelSize(version)
	size := 20
	if version == Version3 {
		size = 32
	}
	var out []IndexEntry
	for ; off+size <= len(b); off += size {
		p := b[off:]
		var e IndexEntry
		if version == Version3 {
			e.Stamp = loadTimestamp(p)
			e.Vol = int32(binary.BigEndian.Uint32(p[12:]))
			e.MetaOffset = int64(binary.BigEndian.Uint64(p[16:]))
			e.DataOffset = int64(binary.BigEndian.Uint64(p[24:]))
		} else {
			e.Stamp = loadTimeval(p)
			e.Vol = int32(binary.BigEndian.Uint32(p[8:]))
			// unsigned, as libpcp's ntohl into an off_t: a damaged
			// offset of 2^31 or more is far past the end, not negative
			e.MetaOffset = int64(binary.BigEndian.Uint32(p[12:]))
			e.DataOffset = int64(binary.BigEndian.Uint32(p[16:]))
		}
		out = append(out, e)
	}
	return out
}
