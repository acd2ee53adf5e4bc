package wire

import (
	"errors"
	"testing"
)

func TestByteOrder(t *testing.T) {
	b := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	for _, tc := range []struct {
		little   bool
		u16      uint16
		u32, u64 uint64
	}{
		{false, 0x0102, 0x01020304, 0x0102030405060708},
		{true, 0x0201, 0x04030201, 0x0807060504030201},
	} {
		d := New(b, tc.little)
		if got := d.U16("a"); got != tc.u16 {
			t.Errorf("little=%v: U16 %#x, want %#x", tc.little, got, tc.u16)
		}
		d.Off = 0
		if got := d.U32("a"); uint64(got) != tc.u32 {
			t.Errorf("little=%v: U32 %#x, want %#x", tc.little, got, tc.u32)
		}
		d.Off = 0
		if got := d.U64("a"); got != tc.u64 {
			t.Errorf("little=%v: U64 %#x, want %#x", tc.little, got, tc.u64)
		}
		if err := d.Done(); err != nil {
			t.Errorf("little=%v: %v", tc.little, err)
		}
	}
}

// TestSticky checks that after the first failure every read gives zero and
// the error and offset stay those of the first failure.
func TestSticky(t *testing.T) {
	d := New([]byte{0, 0, 0, 7, 1}, false)
	if d.U32("x") != 7 {
		t.Fatal("first read")
	}
	if d.U32("y") != 0 || d.Err == nil {
		t.Fatalf("short read: err %v", d.Err)
	}
	first := d.Err
	d.U16("z")
	d.Bytes(1, "w")
	d.At(0, "v")
	if d.Err != first || d.Off != 4 {
		t.Errorf("error %v at %d, want %v at 4", d.Err, d.Off, first)
	}
	var we *Error
	if !errors.As(first, &we) || we.Offset != 4 {
		t.Errorf("error %#v, want *Error at 4", first)
	}
}

func TestHook(t *testing.T) {
	sentinel := errors.New("tagged")
	d := &Decoder{B: nil, Tag: 9, NewError: func(tag int32, off int, msg string) error {
		if tag != 9 {
			t.Errorf("tag %d", tag)
		}
		return sentinel
	}}
	d.U32("x")
	if d.Err != sentinel {
		t.Errorf("error %v, want the hook's", d.Err)
	}
}

func TestBounds(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		read func(d *Decoder)
		ok   bool
	}{
		{"count fits", []byte{0, 0, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8}, func(d *Decoder) { d.Count(4, "n"); d.Skip(8, "e") }, true},
		{"count too big", []byte{0, 0, 0, 3, 1, 2, 3, 4, 5, 6, 7, 8}, func(d *Decoder) { d.Count(4, "n") }, false},
		{"count negative", []byte{0xff, 0xff, 0xff, 0xff}, func(d *Decoder) { d.Count(0, "n") }, false},
		{"room", []byte{1, 2, 3, 4, 5, 6, 7, 8}, func(d *Decoder) { d.Room(0, 2, 4, "n"); d.Skip(8, "e") }, true},
		{"room negative count", []byte{1, 2, 3, 4}, func(d *Decoder) { d.Room(0, -5, 4, "n"); d.Skip(4, "e") }, true},
		{"room too big", []byte{1, 2, 3, 4, 5, 6, 7, 8}, func(d *Decoder) { d.Room(0, 3, 4, "n"); d.Skip(8, "e") }, false},
		{"cstring", []byte{'a', 'b', 0, 'x'}, func(d *Decoder) {
			if s := d.CString(4, "s"); s != "ab" {
				d.Fail(0, "got "+s)
			}
		}, true},
		{"cstring unterminated", []byte{'a', 'b'}, func(d *Decoder) { d.CString(2, "s") }, false},
		{"fits", make([]byte, 16), func(d *Decoder) { d.Fits(8, 2, 4, "x"); d.Skip(16, "all") }, true},
		{"fits overflow", make([]byte, 16), func(d *Decoder) { d.Fits(8, 1<<61, 8, "x"); d.Skip(16, "all") }, false},
		{"fits past end", make([]byte, 16), func(d *Decoder) { d.Fits(17, 0, 4, "x"); d.Skip(16, "all") }, false},
		{"padded", []byte{'a', 0, 0, 0}, func(d *Decoder) { d.Padded(1, "s") }, true},
		{"left over", []byte{1}, func(d *Decoder) {}, false},
		{"at past end", []byte{1}, func(d *Decoder) { d.At(2, "x") }, false},
	} {
		d := New(tc.b, false)
		tc.read(d)
		if err := d.Done(); (err == nil) != tc.ok {
			t.Errorf("%s: error %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}
