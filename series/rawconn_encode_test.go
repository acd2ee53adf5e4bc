package series

import (
	"slices"
	"testing"

	"github.com/gopcp/gopcp/series/resp"
)

func encodeArgs(args []string) string { return string(resp.AppendCommand(nil, args...)) }

// TestDecodeCommand: what resp.AppendCommand encodes decodes to the same
// arguments, empty and binary ones among them; malformed text is an error.
func TestDecodeCommand(t *testing.T) {
	for _, args := range [][]string{
		{"XADD", "pcp:values:series:ab", "1-0", "", "42"},
		{"XADD", "k", "1514816552759-66", "\x00\r\n\xff" + string(make([]byte, 17)), "\"a\r\nb\""},
		{"PING"},
	} {
		got, err := decodeCommand(encodeArgs(args))
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if !slices.Equal(got, args) {
			t.Errorf("decoded %q, want %q", got, args)
		}
	}
	for _, bad := range []string{"", "*", "*1\r\n", "*2\r\n$1\r\na\r\n", "*1\r\n$5\r\nab\r\n", "*1\r\n$-1\r\n", "*1\r\n$1\r\nabc", "*1\r\n$1\r\na\r\nextra", "+OK\r\n", "*x\r\n"} {
		if _, err := decodeCommand(bad); err == nil {
			t.Errorf("%q decoded without error", bad)
		}
	}
}

func FuzzDecodeCommand(f *testing.F) {
	f.Add(encodeArgs([]string{"XADD", "k", "1-0", "", "1"}))
	f.Add("*1\r\n$5\r\nab\r\n")
	f.Fuzz(func(t *testing.T, enc string) {
		args, err := decodeCommand(enc)
		if err != nil {
			return
		}
		again, err := decodeCommand(encodeArgs(args))
		if err != nil || !slices.Equal(again, args) {
			t.Fatalf("%q: decoded %q, again %q (%v)", enc, args, again, err)
		}
	})
}
