package pcp

import (
	"errors"
	"io/fs"
	"syscall"
)

// CodeOf returns the PCP code an error carries, the way libpcp reports
// failures: the pcp.Error it is or wraps; the negated errno of a system
// error (a syscall.Errno, or fs.ErrNotExist and fs.ErrPermission from the
// os package, which hide theirs behind *fs.PathError in some paths); else
// fallback. A nil error has code 0.
//
// Callers choose the fallback because PCP's components differ: pmcd
// answers PM_ERR_GENERIC for a failure it cannot name, pmlogger's control
// service PM_ERR_IPC.
func CodeOf(err error, fallback Error) Error {
	if err == nil {
		return 0
	}
	// The bare errors first: errors.As needs its targets on the heap,
	// an allocation or two per call for agents that report a missing
	// value at every fetch.
	switch e := err.(type) {
	case Error:
		if e < 0 {
			return e
		}
	case syscall.Errno:
		if e != 0 {
			return Error(-int32(e))
		}
	}
	var pe Error
	if errors.As(err, &pe) && pe < 0 {
		return pe
	}
	var errno syscall.Errno
	if errors.As(err, &errno) && errno != 0 {
		return Error(-int32(errno))
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Error(-int32(syscall.ENOENT))
	case errors.Is(err, fs.ErrPermission):
		return Error(-int32(syscall.EACCES))
	}
	return fallback
}

// TextOf returns what pmErrStr prints for the code an error carries, or
// the error's own text when it carries none. Tools print errors this way so
// that a wrapped PCP code reads exactly as PCP's tools print it, without
// the context our wrapping added.
func TextOf(err error) string {
	if err == nil {
		return ErrorText(0)
	}
	if c := CodeOf(err, 0); c != 0 {
		return ErrorText(int32(c))
	}
	return err.Error()
}
