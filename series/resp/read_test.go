package resp

import (
	"bufio"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func reader(s string, lim Limits) *Reader {
	return NewReader(bufio.NewReaderSize(strings.NewReader(s), 64), lim)
}

func TestReadReplies(t *testing.T) {
	bulk := func(s string) Value { return Value{Kind: KindBulk, Str: s} }
	for _, c := range []struct {
		in   string
		want Value
	}{
		{"+OK\r\n", Value{Kind: KindSimple, Str: "OK"}},
		{"-ERR unknown command 'X'\r\n", Value{Kind: KindError, Str: "ERR unknown command 'X'"}},
		{":42\r\n", Value{Kind: KindInt, Int: 42}},
		{":-7\r\n", Value{Kind: KindInt, Int: -7}},
		{"$5\r\nhello\r\n", bulk("hello")},
		{"$0\r\n\r\n", bulk("")},
		{"$4\r\na\r\nb\r\n", bulk("a\r\nb")}, // binary safe
		{"$-1\r\n", Value{Kind: KindNil}},
		{"*-1\r\n", Value{Kind: KindNil}},
		{"*0\r\n", Value{Kind: KindArray, Elems: []Value{}}},
		{"*2\r\n$1\r\na\r\n*1\r\n:1\r\n", Value{Kind: KindArray, Elems: []Value{bulk("a"), {Kind: KindArray, Elems: []Value{{Kind: KindInt, Int: 1}}}}}},
		{"*2\r\n$-1\r\n$1\r\nx\r\n", Value{Kind: KindArray, Elems: []Value{{Kind: KindNil}, bulk("x")}}},
		// RESP3, should a server send it
		{"_\r\n", Value{Kind: KindNil}},
		{"#t\r\n", Value{Kind: KindBool, Int: 1}},
		{"#f\r\n", Value{Kind: KindBool}},
		{",1.5\r\n", Value{Kind: KindDouble, Str: "1.5"}},
		{"(123456789012345678901234\r\n", bulk("123456789012345678901234")},
		{"=7\r\ntxt:abc\r\n", bulk("abc")},
		{"!5\r\nERR x\r\n", Value{Kind: KindError, Str: "ERR x"}},
		{"%1\r\n+k\r\n:1\r\n", Value{Kind: KindMap, Elems: []Value{{Kind: KindSimple, Str: "k"}, {Kind: KindInt, Int: 1}}}},
		{"~1\r\n+a\r\n", Value{Kind: KindArray, Elems: []Value{{Kind: KindSimple, Str: "a"}}}},
		{"|1\r\n+ttl\r\n:3\r\n+OK\r\n", Value{Kind: KindSimple, Str: "OK"}},
	} {
		got, err := reader(c.in, Limits{}).Read()
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Read(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		msg, err := reader(c.in, Limits{}).Skip()
		wantMsg := ""
		if c.want.Kind == KindError {
			wantMsg = c.want.Str
		}
		if err != nil || msg != wantMsg {
			t.Errorf("Skip(%q) = %q, %v; want %q", c.in, msg, err, wantMsg)
		}
	}
}

func TestReadRefusals(t *testing.T) {
	lim := Limits{MaxDepth: 2, MaxBulk: 8, MaxElems: 4}
	for _, c := range []struct {
		in   string
		want error
	}{
		{"?\r\n", ErrProtocol},
		{"+OK\n", ErrProtocol},
		{"\r\n", ErrProtocol},
		{":12a\r\n", ErrProtocol},
		{":99999999999999999999\r\n", ErrProtocol},
		{"$-2\r\n", ErrProtocol},
		{"$9\r\n123456789\r\n", ErrProtocol}, // over MaxBulk
		{"$3\r\nabcde\r\n", ErrProtocol},     // no CRLF after the length given
		{"*5\r\n", ErrProtocol},              // over MaxElems
		{"%3\r\n", ErrProtocol},              // 6 elements
		{"*1\r\n*1\r\n*1\r\n:1\r\n", ErrProtocol},
		{"#x\r\n", ErrProtocol},
		{"=2\r\nab\r\n", ErrProtocol},
		{"$5\r\nab", io.ErrUnexpectedEOF},
		{"*2\r\n:1\r\n", io.EOF},
		{"+" + strings.Repeat("x", 100) + "\r\n", ErrProtocol}, // longer than the buffer
	} {
		_, err := reader(c.in, lim).Read()
		if !errors.Is(err, c.want) {
			t.Errorf("Read(%q) = %v, want %v", c.in, err, c.want)
		}
	}
}

func TestReadLengthWithoutData(t *testing.T) {
	// a large length alone holds no memory: the read fails at the end
	// of what came
	_, err := reader("$536870912\r\nabc", Limits{}).Read()
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("got %v", err)
	}
	_, err = reader("*67108864\r\n:1\r\n", Limits{}).Read()
	if !errors.Is(err, io.EOF) {
		t.Fatalf("got %v", err)
	}
}

func TestValueAccessors(t *testing.T) {
	v, err := reader("*4\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$-1\r\n", Limits{}).Read()
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Strings(); !reflect.DeepEqual(got, []string{"a", "1", "b", ""}) {
		t.Errorf("Strings = %q", got)
	}
	if got := v.StringMap(); !reflect.DeepEqual(got, map[string]string{"a": "1", "b": ""}) {
		t.Errorf("StringMap = %q", got)
	}
	if n, ok := v.Elems[1].Integer(); !ok || n != 1 {
		t.Errorf("Integer = %d %v", n, ok)
	}
	e := Value{Kind: KindError, Str: "MOVED 1 127.0.0.1:7000"}.Err()
	var re *Error
	if !errors.As(e, &re) || re.Prefix() != "MOVED" || e.Error() != "MOVED 1 127.0.0.1:7000" {
		t.Errorf("Err = %v", e)
	}
	if (Value{Kind: KindBulk}).Err() != nil {
		t.Error("a bulk reply is an error")
	}
}

func TestAppendCommand(t *testing.T) {
	got := string(AppendCommand(nil, "SET", "k", "a\r\nb"))
	if want := "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$4\r\na\r\nb\r\n"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestKeySlotHashTags(t *testing.T) {
	if KeySlot("{user1000}.following") != KeySlot("{user1000}.followers") {
		t.Error("keys of one hash tag in different slots")
	}
	// "{}" is no tag: the whole key is hashed
	if got, want := KeySlot("foo{}{bar}"), int(crc16("foo{}{bar}")%Slots); got != want {
		t.Errorf("KeySlot(foo{}{bar}) = %d, want %d", got, want)
	}
	// the cluster specification's check value of its CRC16
	if got := crc16("123456789"); got != 0x31C3 {
		t.Errorf("crc16(123456789) = %#x", got)
	}
}
