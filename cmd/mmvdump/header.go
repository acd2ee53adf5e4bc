package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/pcp"
)

// perror is what C's perror(path) prints for err: the path and the
// C library's text of the system error, or err itself for ours (a file
// over mmvdump's size bound).
func perror(path string, err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if path == "" {
			// perror("") prints the error's text alone
			return pcp.ErrorText(-int32(errno))
		}
		return path + ": " + pcp.ErrorText(-int32(errno))
	}
	return err.Error()
}

// badHeader checks the header as mmvdump does before anything else,
// printing what it prints up to the first fault (the header's lines
// come first for the later ones); it reports whether there was one.
// A sound header's lines are printed too, ahead of the walk.
func badHeader(w io.Writer, path string, b []byte) bool {
	var out bytes.Buffer
	bad := func(format string, args ...any) bool {
		fmt.Fprintf(&out, format, args...)
		w.Write(out.Bytes())
		return true
	}
	if len(b) < mmv.HeaderSize {
		return bad("Bad file size: too small for a header\n")
	}
	le := binary.LittleEndian
	if !bytes.Equal(b[:4], []byte("MMV\x00")) {
		// %c of each of the first three bytes, NULs included
		return bad("Bad magic: %s\n", b[:3])
	}
	version := int32(le.Uint32(b[4:]))
	if version < 1 || version > 3 {
		return bad("Version %d not supported\n", version)
	}
	g1, g2 := le.Uint64(b[8:]), le.Uint64(b[16:])
	tocs := int32(le.Uint32(b[24:]))
	flags := le.Uint32(b[28:])
	process := int32(le.Uint32(b[32:]))
	cluster := int32(le.Uint32(b[36:]))
	fmt.Fprintf(&out, "MMV file   = %s\n", path)
	fmt.Fprintf(&out, "Version    = %d\n", version)
	fmt.Fprintf(&out, "Generated  = %d\n", g1)
	if g1 != g2 {
		return bad("Generated2 = %d\nMismatched generation numbers (%d/%d)\n", g2, g1, g2)
	}
	fmt.Fprintf(&out, "TOC count  = %d\n", uint32(tocs))
	if tocs < 2 {
		return bad("Bad tocs: invalid table of contents count (%d)\n", tocs)
	}
	fmt.Fprintf(&out, "Cluster    = %d\n", uint32(cluster))
	if cluster < 0 || cluster > 1<<12-1 {
		return bad("Bad cluster: %d is not a valid cluster ID\n", cluster)
	}
	fmt.Fprintf(&out, "Process    = %d\n", process)
	fmt.Fprintf(&out, "Flags      = 0x%x (%s)\n", flags, flagString(mmv.Flags(flags)))
	if int64(len(b)) < int64(mmv.HeaderSize)+int64(tocs)*int64(mmv.TOCSize) {
		return bad("Bad file size: too small for %d TOC entries\n", tocs)
	}
	w.Write(out.Bytes())
	return false
}
