package pmda

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
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
// values labels hold: nil, booleans, numbers and strings (of any named type
// too), values with their own MarshalJSON or MarshalText, pointers to
// these, and slices, arrays and string- or integer-keyed maps of them
// (the Linux agent's device_type lists). They are written here rather than
// through json.Marshal because Marshal links json's whole reflective
// encoder into every agent (about a tenth of the sample agent's program
// text), whose pages count in its resident memory; label sets are built
// once, so speed is no matter. Structs, channels and functions are
// refused.
func appendLabelJSON(dst []byte, v any) ([]byte, error) {
	if v == nil {
		return append(dst, "null"...), nil
	}
	return appendLabelValue(dst, reflect.ValueOf(v), 0)
}

// maxLabelDepth bounds the nesting of a label value's lists and maps.
const maxLabelDepth = 32

func appendLabelValue(dst []byte, rv reflect.Value, depth int) ([]byte, error) {
	if depth > maxLabelDepth {
		return dst, fmt.Errorf("%w: nested more than %d deep", errLabelValue, maxLabelDepth)
	}
	// Marshal asks the value's own methods first, through its address
	// when it has one (a slice's element), as json does.
	if rv.Kind() != reflect.Pointer && rv.CanAddr() {
		if done, out, err := appendOwnJSON(dst, rv.Addr()); done {
			return out, err
		}
	}
	if done, out, err := appendOwnJSON(dst, rv); done {
		return out, err
	}
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
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return append(dst, "null"...), nil
		}
		return appendLabelValue(dst, rv.Elem(), depth+1)
	case reflect.Slice:
		if rv.IsNil() {
			return append(dst, "null"...), nil
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 && !ownJSON(reflect.PointerTo(rv.Type().Elem())) {
			// Bytes are a base64 string to json.
			dst = append(dst, '"')
			dst = base64.StdEncoding.AppendEncode(dst, rv.Bytes())
			return append(dst, '"'), nil
		}
		return appendLabelList(dst, rv, depth)
	case reflect.Array:
		return appendLabelList(dst, rv, depth)
	case reflect.Map:
		return appendLabelMap(dst, rv, depth)
	}
	return dst, fmt.Errorf("%w %s", errLabelValue, rv.Type())
}

// ownJSON reports whether values of type t write themselves.
func ownJSON(t reflect.Type) bool {
	return t.Implements(reflect.TypeFor[jsonMarshaler]()) || t.Implements(reflect.TypeFor[encoding.TextMarshaler]())
}

// appendOwnJSON writes rv through its MarshalJSON or MarshalText, if it
// has one: done says it had.
func appendOwnJSON(dst []byte, rv reflect.Value) (done bool, out []byte, err error) {
	if !rv.CanInterface() {
		return false, dst, nil
	}
	switch x := rv.Interface().(type) {
	case jsonMarshaler:
		if rv.Kind() == reflect.Pointer && rv.IsNil() {
			return true, append(dst, "null"...), nil
		}
		b, err := x.MarshalJSON()
		if err != nil {
			return true, dst, err
		}
		// As Marshal does: checked, compacted, <, > and & escaped.
		var c, h bytes.Buffer
		if err := json.Compact(&c, b); err != nil {
			return true, dst, err
		}
		json.HTMLEscape(&h, c.Bytes())
		return true, append(dst, h.Bytes()...), nil
	case encoding.TextMarshaler:
		if rv.Kind() == reflect.Pointer && rv.IsNil() {
			return true, append(dst, "null"...), nil
		}
		b, err := x.MarshalText()
		if err != nil {
			return true, dst, err
		}
		return true, appendJSONString(dst, string(b)), nil
	}
	return false, dst, nil
}

func appendLabelList(dst []byte, rv reflect.Value, depth int) ([]byte, error) {
	dst = append(dst, '[')
	for i := range rv.Len() {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendLabelValue(dst, rv.Index(i), depth+1); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

// appendLabelMap writes a map with string or integer keys, sorted by the
// keys as written, as json does.
func appendLabelMap(dst []byte, rv reflect.Value, depth int) ([]byte, error) {
	if rv.IsNil() {
		return append(dst, "null"...), nil
	}
	type entry struct {
		key string
		val reflect.Value
	}
	entries := make([]entry, 0, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		k := it.Key()
		var key string
		// As json: a string kind is its own name, else a key's
		// MarshalText comes before its number.
		tm, isText := k.Interface().(encoding.TextMarshaler)
		switch {
		case k.Kind() == reflect.String:
			key = k.String()
		case isText:
			if k.Kind() != reflect.Pointer || !k.IsNil() {
				b, err := tm.MarshalText()
				if err != nil {
					return dst, err
				}
				key = string(b)
			}
		case k.CanInt():
			key = strconv.FormatInt(k.Int(), 10)
		case k.CanUint():
			key = strconv.FormatUint(k.Uint(), 10)
		default:
			return dst, fmt.Errorf("%w: map key %s", errLabelValue, k.Type())
		}
		entries = append(entries, entry{key, it.Value()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	dst = append(dst, '{')
	for i, e := range entries {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, e.key)
		dst = append(dst, ':')
		var err error
		if dst, err = appendLabelValue(dst, e.val, depth+1); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
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
