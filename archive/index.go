package archive

import (
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
	d := metaDecoder(b, labelSize(version))
	size := 20
	if version == Version3 {
		size = 32
	}
	// sized once: the file's length gives the count, and growing by
	// appending made twice the entries' memory (82 KB for the 100 MB
	// archive's 850 entries)
	var out []IndexEntry
	if n := (len(b) - d.Off) / size; n > 0 {
		out = make([]IndexEntry, 0, n)
	}
	for d.Off <= len(b)-size {
		var e IndexEntry
		e.Stamp = readStamp(&d, version == Version2)
		e.Vol = d.I32("volume")
		if version == Version3 {
			e.MetaOffset = d.I64("metadata offset")
			e.DataOffset = d.I64("data offset")
		} else {
			// unsigned, as libpcp's ntohl into an off_t: a damaged
			// offset of 2^31 or more is far past the end, not negative
			e.MetaOffset = int64(d.U32("metadata offset"))
			e.DataOffset = int64(d.U32("data offset"))
		}
		out = append(out, e)
	}
	return out
}
