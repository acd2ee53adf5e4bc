package archive

import (
	"bytes"
	"compress/gzip"
	"os/exec"
	"testing"
)

// TestOldGzipMagicAgainstGzip reads members with gzip 0.5's magic
// number (0x1f 0x9e), which gzip -dc still reads as its own: alone,
// beside today's members, cut short and followed by garbage.
func TestOldGzipMagicAgainstGzip(t *testing.T) {
	gz, err := exec.LookPath("gzip")
	if err != nil {
		t.Skip("gzip is not installed")
	}
	dir := t.TempDir()
	member := func(data []byte, old bool) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write(data)
		w.Close()
		if old {
			b.Bytes()[1] = oldGzipMagic2
		}
		return b.Bytes()
	}
	data := filterInput(t, 100000)
	old, cur := member(data, true), member([]byte("now"), false)
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"old", old},
		{"old then new", cat(old, cur)},
		{"new then old", cat(cur, old)},
		{"old twice", cat(old, old)},
		{"old then zeros", cat(old, []byte{0, 0})},
		{"old then garbage", cat(old, []byte("junk"))},
		{"old cut", old[:len(old)/2]},
		{"old header cut", old[:5]},
		{"old empty", member(nil, true)},
	} {
		compareGzip(t, gz, dir, c.name, c.b, nil, false)
	}
}
