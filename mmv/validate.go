package mmv

import (
	"encoding/json"
	"strconv"
)

// Limits pmdammv imposes on the numbers in a file.
const (
	MaxItem    = 1<<10 - 1 // an item must fit a PMID's 10 bits
	MaxCluster = 1<<12 - 1 // a cluster must fit a PMID's 12 bits
	// MaxSerial is the largest instance domain serial that cannot collide:
	// pmdammv builds the InDom's serial as cluster<<11 | serial, so a
	// larger serial would overlap the cluster's bits.
	MaxSerial  = 1<<11 - 1
	maxMetrics = 1023 // pmdammv ignores every metric of a file with more
	maxLabels  = 1<<8 - 1
)

// CheckName reports whether name is a metric name pmdammv accepts, with
// an error saying what (the name's role, for the message) is wrong: see
// checkName.
func CheckName(what, name string) error { return checkName(what, name) }

// checkName applies pmdammv's grammar for metric names,
// [A-Za-z][A-Za-z0-9_.]*, and refuses empty components ("a..b", "a.")
// that the grammar lets through but a namespace cannot hold. Names must
// be shorter than a string slot.
func checkName(what, name string) error {
	if name == "" {
		return errorf(ErrInvalid, what, "empty name")
	}
	if len(name) >= StringSize {
		return errorf(ErrTooBig, what, "name is %d bytes, the limit is %d", len(name), StringSize-1)
	}
	if !isAlpha(name[0]) {
		return errorf(ErrInvalid, what, "name must start with a letter")
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		switch {
		case isAlpha(c) || isDigit(c) || c == '_':
		case c == '.':
			if name[i-1] == '.' || i == len(name)-1 {
				return errorf(ErrInvalid, what, "empty name component")
			}
		default:
			return errorf(ErrInvalid, what, "character %q is not allowed (letters, digits, '_' and '.')", c)
		}
	}
	return nil
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// checkText refuses help text that does not fit a string slot, as
// libpcp_mmv does.
func checkText(what, text string) error {
	if len(text) >= StringSize {
		return errorf(ErrTooBig, what, "help text is %d bytes, the limit is %d", len(text), StringSize-1)
	}
	return nil
}

// checkInstanceName applies libpcp_mmv's rule: not empty, shorter than a
// string slot, and no NUL (which would cut it short in the file).
func checkInstanceName(what, name string) error {
	if name == "" {
		return errorf(ErrInvalid, what, "empty instance name")
	}
	if len(name) >= StringSize {
		return errorf(ErrTooBig, what, "instance name is %d bytes, the limit is %d", len(name), StringSize-1)
	}
	for i := 0; i < len(name); i++ {
		if name[i] == 0 {
			return errorf(ErrInvalid, what, "instance name holds a NUL byte")
		}
	}
	return nil
}

// Label is one label: a name and its value as JSON text, e.g. `"web"`,
// `42`, `true`, `null`, `[1,2]` or `{"a":1}`. StringLabel and NumberLabel
// build the common ones.
type Label struct {
	Name     string
	Value    string
	Optional bool // PM_LABEL_OPTIONAL: not used to tell series apart
}

// StringLabel is a label whose value is the JSON string s.
func StringLabel(name, s string) Label {
	b, _ := json.Marshal(s) // a string always marshals
	return Label{Name: name, Value: string(b)}
}

// NumberLabel is a label whose value is the number f.
func NumberLabel(name string, f float64) Label {
	return Label{Name: name, Value: strconv.FormatFloat(f, 'g', -1, 64)}
}

// payload checks a label as libpcp_mmv's get_label does (name grammar
// [A-Za-z][A-Za-z0-9_]*, len(name)+len(value)+5 <= MMV_LABELMAX, a value
// that is valid JSON) and returns the JSON object the file holds.
func (l Label) payload(what string) (string, error) {
	what = what + " label " + strconv.Quote(l.Name)
	if len(l.Name)+len(l.Value)+5 > LabelMax {
		return "", errorf(ErrTooBig, what, "name and value take %d bytes, the limit is %d", len(l.Name)+len(l.Value)+5, LabelMax)
	}
	if l.Name == "" || !isAlpha(l.Name[0]) {
		return "", errorf(ErrInvalid, what, "label name must start with a letter")
	}
	for i := 1; i < len(l.Name); i++ {
		if c := l.Name[i]; !isAlpha(c) && !isDigit(c) && c != '_' {
			return "", errorf(ErrInvalid, what, "character %q is not allowed in a label name", c)
		}
	}
	if l.Value == "" || !json.Valid([]byte(l.Value)) {
		return "", errorf(ErrInvalid, what, "value %q is not JSON", l.Value)
	}
	return `{"` + l.Name + `":` + l.Value + `}`, nil
}
