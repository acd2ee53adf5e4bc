package trace

import (
	"errors"
	"syscall"
)

// Error is a libpcp_trace error code (PMTRACE_ERR_*), negative, between
// -12000 and -12011.
type Error int32

// libpcp_trace's error codes.
const (
	ErrTagName    Error = -12000 // PMTRACE_ERR_TAGNAME
	ErrInProgress Error = -12001 // PMTRACE_ERR_INPROGRESS
	ErrNoProgress Error = -12002 // PMTRACE_ERR_NOPROGRESS
	ErrNoSuchTag  Error = -12003 // PMTRACE_ERR_NOSUCHTAG
	ErrTagType    Error = -12004 // PMTRACE_ERR_TAGTYPE
	ErrTagLength  Error = -12005 // PMTRACE_ERR_TAGLENGTH
	ErrIPC        Error = -12006 // PMTRACE_ERR_IPC
	ErrEnvFormat  Error = -12007 // PMTRACE_ERR_ENVFORMAT
	ErrTimeout    Error = -12008 // PMTRACE_ERR_TIMEOUT
	ErrVersion    Error = -12009 // PMTRACE_ERR_VERSION
	ErrPermission Error = -12010 // PMTRACE_ERR_PERMISSION
	ErrConnLimit  Error = -12011 // PMTRACE_ERR_CONNLIMIT
)

// errBase is PMTRACE_ERR_BASE: codes above -errBase are negated errno
// values.
const errBase = 12000

// errText is pmtraceerrstr's texts, word for word, since programs print
// them, indexed by -code-errBase: an array, not a map, which package
// initialisation would build in every program linking the trace agent.
var errText = [...]string{
	-errBase - ErrTagName:    "Invalid tag name - tag names cannot be NULL",
	-errBase - ErrInProgress: "Transaction is already in progress - cannot begin",
	-errBase - ErrNoProgress: "Transaction is not currently in progress - cannot end",
	-errBase - ErrNoSuchTag:  "Transaction tag was not successfully initialised",
	-errBase - ErrTagType:    "Tag is already in use for a different type of tracing",
	-errBase - ErrTagLength:  "Tag name is too long (maximum 256 characters)",
	-errBase - ErrIPC:        "IPC protocol failure",
	-errBase - ErrEnvFormat:  "Unrecognised environment variable format",
	-errBase - ErrTimeout:    "Application timed out connecting to the PMDA",
	-errBase - ErrVersion:    "Incompatible versions between application and PMDA",
	-errBase - ErrPermission: "Cannot connect to PMDA - permission denied",
	-errBase - ErrConnLimit:  "Cannot connect to PMDA - connection limit reached",
}

func (e Error) Error() string { return ErrText(int(e)) }

// Code is the error's number, as libpcp_trace returns it.
func (e Error) Code() int { return int(e) }

// ErrText is pmtraceerrstr: the text of a libpcp_trace status. Codes
// between -1 and -11999 are negated errno values and get the system's
// text (Go's wording, which can differ from the C library's in case).
func ErrText(code int) string {
	switch {
	case code == 0:
		return "No error."
	case code < 0 && code > -errBase:
		return capitalise(syscall.Errno(-code).Error())
	}
	if i := -errBase - code; i >= 0 && i < len(errText) {
		return errText[i]
	}
	return "Unknown error code."
}

// CodeOf is the libpcp_trace status an error stands for: its code for an
// Error, the negated errno for a system error, ErrIPC for anything else,
// and 0 for nil.
func CodeOf(err error) int {
	if err == nil {
		return 0
	}
	var e Error
	if errors.As(err, &e) {
		return int(e)
	}
	var n syscall.Errno
	if errors.As(err, &n) {
		return -int(n)
	}
	return int(ErrIPC)
}

// capitalise makes Go's errno text read as the C library's, which starts
// with a capital.
func capitalise(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
