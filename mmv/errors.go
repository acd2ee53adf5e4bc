package mmv

import (
	"fmt"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
)

// The PCP error codes this package's errors carry, as libpcp_mmv sets
// errno: EINVAL for a malformed name or value, E2BIG for one too long,
// ESRCH for a reference to an instance domain that does not exist,
// EEXIST for a name or number already taken, ERANGE for a number out of
// the range pmdammv accepts.
var (
	ErrInvalid = pcp.Error(-int32(syscall.EINVAL))
	ErrTooBig  = pcp.Error(-int32(syscall.E2BIG))
	ErrNoInDom = pcp.Error(-int32(syscall.ESRCH))
	ErrExists  = pcp.Error(-int32(syscall.EEXIST))
	ErrRange   = pcp.Error(-int32(syscall.ERANGE))
	ErrClosed  = pcp.Error(-int32(syscall.EBADF))
)

// Error describes a refused registration: what was being added, and why.
// errors.Is(err, ErrExists) and friends test its PCP code.
type Error struct {
	What string // e.g. `metric "a.b"`
	Msg  string
	Code pcp.Error
}

func (e *Error) Error() string { return "mmv: " + e.What + ": " + e.Msg }

// Unwrap gives the PCP error code.
func (e *Error) Unwrap() error { return e.Code }

func errorf(code pcp.Error, what, format string, args ...any) error {
	return &Error{What: what, Msg: fmt.Sprintf(format, args...), Code: code}
}
