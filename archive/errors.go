package archive

import (
	"errors"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// Error is a fault in an archive file: which file, where, what, and the
// PCP error code (pcp.ErrLogRec, pcp.ErrLabel, ...) that errors.Is finds.
type Error struct {
	File   string // the file's path, "" when not known
	Offset int64  // byte offset of the damaged record or field
	Msg    string
	Code   pcp.Error
}

func (e *Error) Error() string {
	s := e.Code.Error()
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.File != "" {
		return fmt.Sprintf("%s: offset %d: %s", e.File, e.Offset, s)
	}
	return fmt.Sprintf("offset %d: %s", e.Offset, s)
}

// Unwrap gives the PCP code.
func (e *Error) Unwrap() error { return e.Code }

func errLogRec(off int64, msg string) *Error {
	return &Error{Offset: off, Msg: msg, Code: pcp.ErrLogRec}
}

// withFile fills in the file of an *Error that lacks one.
func withFile(err error, file string) error {
	var e *Error
	if errors.As(err, &e) && e.File == "" {
		e.File = file
	}
	return err
}

// Code returns the PCP error code of err as libpcp would report it: the
// code of an archive Error or a pcp.Error, the negated errno of a system
// error, else pcp.ErrGeneric.
func Code(err error) pcp.Error { return pcp.CodeOf(err, pcp.ErrGeneric) }
