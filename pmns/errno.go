package pmns

import (
	"errors"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
)

// errnoCode is PCP's code for an operating-system error: the negated errno.
func errnoCode(err error) pcp.Error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return pcp.Error(-int32(errno))
	}
	return pcp.ErrGeneric
}
