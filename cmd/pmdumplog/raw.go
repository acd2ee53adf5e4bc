package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// rawDump is -v: every record of one physical file in hex.
func rawDump(path, prog string, out *bufio.Writer, stderr io.Writer) int {
	b, err := os.ReadFile(path)
	if err != nil {
		out.Flush()
		msg := err.Error()
		if pe, ok := err.(*os.PathError); ok {
			msg = pe.Err.Error()
			msg = string(msg[0]-32) + msg[1:]
		}
		fmt.Fprintf(stderr, "%s: Cannot open \"%s\": %s\n", prog, path, msg)
		return 1
	}
	fmt.Fprintf(out, "Raw dump of physical archive file \"%s\" ...\n", path)
	off := 0
	for len(b)-off >= 4 {
		l := int(int32(binary.BigEndian.Uint32(b[off:])))
		fmt.Fprintf(out, "Dump ... record len: %d @ offset: %d", l, off)
		off += 4
		n := l - 8
		eof := false
		for i := 0; i < n; i++ {
			if off >= len(b) {
				out.WriteString("Unexpected EOF\n")
				eof = true
				break
			}
			if i%32 == 0 {
				out.WriteByte('\n')
			}
			if i%4 == 0 {
				out.WriteByte(' ')
			}
			fmt.Fprintf(out, "%02x", b[off])
			off++
		}
		out.WriteByte('\n')
		if len(b)-off < 4 {
			if len(b)-off == 0 {
				out.WriteString("Unexpected EOF\n")
			}
			break
		}
		_ = eof
		check := int(int32(binary.BigEndian.Uint32(b[off:])))
		off += 4
		if check != n+8 {
			fmt.Fprintf(out, "Trailer botch: %d != %d\n", check, n+8)
			break
		}
	}
	return 0
}
