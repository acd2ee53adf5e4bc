package cgroup

import (
	"math"
	"testing"
)

// The expected values are what glibc's strtoull, strtoll and sscanf give
// for the same input.

func TestStrtoull(t *testing.T) {
	for _, tc := range []struct {
		in   string
		base int
		want uint64
		end  int
		ok   bool
	}{
		{"42", 0, 42, 2, true},
		{"  42\n", 0, 42, 4, true},
		{"0x1f", 0, 31, 4, true},
		{"0X1F", 0, 31, 4, true},
		{"010", 0, 8, 3, true},
		{"09", 0, 0, 1, true},
		{"0x", 0, 0, 1, true},
		{"0xg", 0, 0, 1, true},
		{"-1", 0, math.MaxUint64, 2, true},
		{"+7", 0, 7, 2, true},
		{"18446744073709551615", 10, math.MaxUint64, 20, true},
		{"18446744073709551616", 10, math.MaxUint64, 20, true},
		{"-18446744073709551616", 10, math.MaxUint64, 21, true},
		{"max", 0, 0, 0, false},
		{"", 0, 0, 0, false},
		{"- 1", 0, 0, 0, false},
		{"0x10", 10, 0, 1, true},
	} {
		v, end, ok := strtoull(tc.in, 0, tc.base)
		if v != tc.want || end != tc.end || ok != tc.ok {
			t.Errorf("strtoull(%q, %d) = %d, %d, %v; want %d, %d, %v", tc.in, tc.base, v, end, ok, tc.want, tc.end, tc.ok)
		}
	}
}

func TestStrtoll(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"-1", -1, true},
		{"50000\n", 50000, true},
		{"-0x10", -16, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"9223372036854775808", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"-9223372036854775809", math.MinInt64, true},
		{"-99999999999999999999999", math.MinInt64, true},
		{"- 5", 0, false},
		{"max 100000", 0, false},
	} {
		v, _, ok := strtoll(tc.in, 0)
		if v != tc.want || ok != tc.ok {
			t.Errorf("strtoll(%q) = %d, %v; want %d, %v", tc.in, v, ok, tc.want, tc.ok)
		}
	}
}

func TestScanPressure(t *testing.T) {
	text := "some avg10=2.91 avg60=12.50 avg300=7.04 total=987654\nfull avg10=1.20 avg60=3.00 avg300=0.99 total=55555\n"
	pos := 0
	some := scanPressure(text, &pos, "some")
	full := scanPressure(text, &pos, "full")
	if !some.updated || some.avg10 != 2.91 || some.avg300 != 7.04 || some.total != 987654 {
		t.Errorf("some = %+v", some)
	}
	if !full.updated || full.avg60 != 3 || full.total != 55555 {
		t.Errorf("full = %+v", full)
	}
	// fscanf's reading stops at the first byte that does not match (the
	// format's space has eaten the newline); the next scan starts there,
	// as pmdaproc's second fscanf does, and so reads the full line.
	pos = 0
	bad := "some avg10=0.00 avg60=0.00\nfull avg10=1.00 avg60=2.00 avg300=3.00 total=4\n"
	if p := scanPressure(bad, &pos, "some"); p.updated {
		t.Errorf("short some line read as %+v", p)
	}
	if p := scanPressure(bad, &pos, "full"); !p.updated || p.total != 4 {
		t.Errorf("full line after a short some line read as %+v", p)
	}
}

func TestContainerID(t *testing.T) {
	id := "0ea0c4f1e2d3c4b5a6978877665544332211aabbccddeeff00112233445566aa"
	for _, tc := range []struct{ in, want string }{
		{"/system.slice/docker-" + id + ".scope", id},
		{"/machine.slice/libpod-" + id + ".scope", id},
		{"/docker/" + id, id},
		{"/docker/" + id + "\n", ""}, // pmdaproc's length arithmetic counts differently with a newline
		{"/docker/" + id + "x\n", id},
		{"/" + id, ""}, // at the top: no parent
		{"/docker-containerd.scope", ""},
		{"/docker/" + id[:63], ""},
		{"/system.slice/docker-" + id + "scope", ""},
		{"/", ""},
		{"", ""},
	} {
		if got := containerID(tc.in); got != tc.want {
			t.Errorf("containerID(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestUnescape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`/system.slice/app\x2dweb.service`, "/system.slice/app-web.service"},
		{`/plain`, "/plain"},
		{`/a\x41\x42`, "/aAB"},
		{`/odd\xZZ`, "/odd\xea"},
		{`/cut\x4`, "/cut\xea"},
		{`/cut\x`, "/cut\xea"},
		{`/trail\`, `/trail\`},
		{`/not\y41`, `/not\y41`},
	} {
		if got := unescape(tc.in); got != tc.want {
			t.Errorf("unescape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPieces(t *testing.T) {
	var got []string
	pieces([]byte("ab\ncdefg\nh"), 4, func(l string) bool { got = append(got, l); return true })
	want := []string{"ab\n", "cde", "fg\n", "h"}
	if len(got) != len(want) {
		t.Fatalf("pieces = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("pieces = %q, want %q", got, want)
		}
	}
}

// TestScannersAllocs: the number scanners, run over every cgroup's files
// at every fetch, allocate nothing.
func TestScannersAllocs(t *testing.T) {
	line := "8:16 Read 18446744073709551616 -0x10 077\n"
	if n := testing.AllocsPerRun(100, func() {
		_, i, _ := scanDevt(line)
		_, i, _ = scanWord(line, i)
		_, i, _ = scanULL(line, i)
		_, i, _ = strtoll(line, i)
		strtoull(line, i, 0)
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
