package resp

import "strconv"

// AppendCommand appends args as a RESP request: an array of bulk
// strings, the form Redis reads from every client.
func AppendCommand(b []byte, args ...string) []byte {
	b = append(b, '*')
	b = strconv.AppendInt(b, int64(len(args)), 10)
	b = append(b, '\r', '\n')
	for _, s := range args {
		b = AppendBulk(b, s)
	}
	return b
}

// AppendBulk appends s as a RESP bulk string.
func AppendBulk(b []byte, s string) []byte {
	b = append(b, '$')
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, '\r', '\n')
	b = append(b, s...)
	return append(b, '\r', '\n')
}
