package pmda

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// jsonMarshaler is encoding/json's Marshaler, named here so that a label
// value's own JSON is found without linking json's reflective encoder.
type jsonMarshaler interface {
	MarshalJSON() ([]byte, error)
}

// errLabelValue is a label value of a kind labels do not hold.
var errLabelValue = errors.New("unsupported label value type")

// appendLabelJSON appends v as encoding/json's Marshal writes it, for the
// values labels hold: nil, booleans, numbers, strings (of any named type
// too), and values with their own MarshalJSON or MarshalText. Only these
// are written here, rather than through json.Marshal, because Marshal
// links json's whole reflective encoder into every agent (about a tenth of
// the sample agent's program text), whose pages count in its resident
// memory; label sets are built once, so speed is no matter.
func appendLabelJSON(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case jsonMarshaler:
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return append(dst, "null"...), nil
		}
		b, err := x.MarshalJSON()
		if err != nil {
			return dst, err
		}
		// As Marshal does: checked, compacted, <, > and & escaped.
		var c, h bytes.Buffer
		if err := json.Compact(&c, b); err != nil {
			return dst, err
		}
		json.HTMLEscape(&h, c.Bytes())
		return append(dst, h.Bytes()...), nil
	case encoding.TextMarshaler:
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return append(dst, "null"...), nil
		}
		b, err := x.MarshalText()
		if err != nil {
			return dst, err
		}
		return appendJSONString(dst, string(b)), nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(dst, rv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(dst, rv.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(dst, rv.Uint(), 10), nil
	case reflect.Float32:
		return appendJSONFloat(dst, rv.Float(), 32)
	case reflect.Float64:
		return appendJSONFloat(dst, rv.Float(), 64)
	case reflect.String:
		return appendJSONString(dst, rv.String()), nil
	}
	return dst, fmt.Errorf("%w %s", errLabelValue, rv.Type())
}

// appendJSONFloat writes f as json.Marshal does: the shortest form that
// reads back, with an exponent (not padded) only below 1e-6 or from 1e21.
func appendJSONFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, fmt.Errorf("unsupported label value %s", strconv.FormatFloat(f, 'g', -1, bits))
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// e-09 is written e-9.
		b := dst[start:]
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst, nil
}

// appendJSONString writes s quoted as json.Marshal does: control
// characters, quotes, backslashes, <, > and & escaped, U+2028 and U+2029
// escaped, and each byte of invalid UTF-8 replaced by \ufffd.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
