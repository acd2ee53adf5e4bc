package cgroup

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gopcp/gopcp/internal/cstrtod"
)

// The scanners below read numbers as the C library calls pmdaproc uses
// do (sscanf's %llu and %u, strtoull and strtoll with base 0, %f), so that
// odd input gives PCP's values: a sign is taken, overflow saturates, base
// 0 reads 0x.. as hexadecimal and 0.. as octal.

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// strtoull is C's strtoull(s+i, &end, base) (cstrtod.ParseUint): the
// value, the index after it, and whether any digit was read (end == i if
// not).
func strtoull(s string, i, base int) (v uint64, end int, ok bool) {
	v, n, _ := cstrtod.ParseUint(s[i:], base)
	if n == 0 {
		return 0, i, false
	}
	return v, i + n, true
}

// strtoll is C's strtoll(s+i, &end, 0) (cstrtod.ParseInt): saturating at
// the int64 range.
func strtoll(s string, i int) (int64, int, bool) {
	v, n, _ := cstrtod.ParseInt(s[i:], 0)
	if n == 0 {
		return 0, i, false
	}
	return v, i + n, true
}

// scanULL is sscanf's %llu at s[i:].
func scanULL(s string, i int) (uint64, int, bool) { return strtoull(s, i, 10) }

// scanU is sscanf's %u: strtoul's value cut to 32 bits.
func scanU(s string, i int) (uint32, int, bool) {
	v, end, ok := strtoull(s, i, 10)
	return uint32(v), end, ok
}

// scanDevt is sscanf's "%u:%u" at the start of a blkio or io.stat line:
// the device as the key of Source.devt (devKey), and where the scan
// stopped.
func scanDevt(line string) (uint64, int, bool) {
	major, i, ok := scanU(line, 0)
	if !ok || i >= len(line) || line[i] != ':' {
		return 0, i, false
	}
	minor, i, ok := scanU(line, i+1)
	if !ok {
		return 0, i, false
	}
	return devKey(major, minor), i, true
}

// devKey is a device's key in Source.devt: major and minor as numbers
// ("MAJ:MIN" in pmdaproc's map, the same device whatever zeros lead).
func devKey(major, minor uint32) uint64 { return uint64(major)<<32 | uint64(minor) }

// scanWord is sscanf's %s: whitespace skipped, then the run of
// non-space bytes (at least one).
func scanWord(s string, i int) (string, int, bool) {
	i = skipSpace(s, i)
	j := i
	for j < len(s) && !isSpace(s[j]) {
		j++
	}
	return s[i:j], j, j > i
}

// scanFloat is sscanf's %f for the decimal forms the kernel writes: sign,
// digits, fraction and exponent; the value is a C float.
func scanFloat(s string, i int) (float32, int, bool) {
	i = skipSpace(s, i)
	j := i
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	// infinity and nan, as strtof reads them
	for _, word := range []string{"infinity", "inf", "nan"} {
		if len(s)-j >= len(word) && strings.EqualFold(s[j:j+len(word)], word) {
			f := float32(math.Inf(1))
			if word == "nan" {
				f = float32(math.NaN())
			}
			if s[i] == '-' {
				f = -f
			}
			return f, j + len(word), true
		}
	}
	digits := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
			digits++
		}
	}
	if digits == 0 {
		return 0, i, false
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			j = k
		}
	}
	f, err := strconv.ParseFloat(s[i:j], 32)
	if err != nil && f == 0 {
		// underflow is zero; overflow is ±Inf from ParseFloat already
		return 0, j, true
	}
	return float32(f), j, true
}

// pieces calls fn with the lines of b as C's fgets with a buffer of size n
// returns them: each at most n-1 bytes, ending at a newline when one comes
// within that. fn returning false stops. The lines are copies fn may keep.
func pieces(b []byte, n int, fn func(line string) bool) {
	piecesOf(b, n, fn, false)
}

// piecesView is pieces whose lines point into b: fn must not keep them
// (nor anything cut from them) past its return. The readers of a
// cgroup's files, run for every cgroup every fetch, only parse theirs.
func piecesView(b []byte, n int, fn func(line string) bool) {
	piecesOf(b, n, fn, true)
}

func piecesOf(b []byte, n int, fn func(line string) bool, view bool) {
	for len(b) > 0 {
		end := len(b)
		if end > n-1 {
			end = n - 1
		}
		for k := 0; k < end; k++ {
			if b[k] == '\n' {
				end = k + 1
				break
			}
		}
		line := b[:end]
		var l string
		if view {
			l = unsafe.String(unsafe.SliceData(line), len(line))
		} else {
			l = string(line)
		}
		if !fn(l) {
			return
		}
		b = b[end:]
	}
}

// firstLine is fgets' first piece of b with a buffer of n bytes, or false
// for an empty file (fgets returning NULL). It points into b.
func firstLine(b []byte, n int) (string, bool) {
	var out string
	got := false
	piecesView(b, n, func(l string) bool { out, got = l, true; return false })
	return out, got
}
