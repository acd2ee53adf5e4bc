package webapi

import (
	"strconv"
)

// suffix is the stack of closing brackets a streamed JSON answer still
// owes, as pmproxy's json_push_suffix keeps it: the innermost first and
// "\r\n" at the end.
type suffix []byte

func (s suffix) push(c byte) suffix {
	if len(s) == 0 {
		return suffix{c, '\r', '\n'}
	}
	return append(suffix{c}, s...)
}

func (s suffix) pop() suffix {
	if len(s) == 0 {
		return s
	}
	return s[1:]
}

func appendUint(dst []byte, v uint64) []byte { return strconv.AppendUint(dst, v, 10) }
func appendInt(dst []byte, v int64) []byte   { return strconv.AppendInt(dst, v, 10) }
