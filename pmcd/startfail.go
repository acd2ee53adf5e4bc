package pmcd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// startFailure is what PCP's pmcd writes, bare, when a daemon agent does
// not come up: its forked child's "error starting" when the program
// cannot be run (then, as in PCP, the pipe's end-of-file), the
// end-of-file, an unexpected PDU or another error at the initial
// exchange. ok is false for failures PCP has no words for (an
// in-process agent's, a socket that cannot be reached), which keep ours.
func startFailure(c AgentConf, err error) (lines string, ok bool) {
	if c.Kind == AgentDSO {
		return "", false
	}
	eof := fmt.Sprintf("pmcd: unexpected end-of-file at initial exchange with %s PMDA\n", c.Name)
	var pe *fs.PathError
	var ee *exec.Error
	var ue *pdu.UnexpectedError
	switch {
	case errors.As(err, &ee):
		return fmt.Sprintf("pmcd: error starting %s: %s\n", ee.Name, strerror(ee.Err)) + eof, true
	case errors.As(err, &pe) && pe.Op == "fork/exec":
		return fmt.Sprintf("pmcd: error starting %s: %s\n", pe.Path, strerror(pe.Err)) + eof, true
	case errors.As(err, &ue):
		return fmt.Sprintf("pmcd: unexpected PDU type (0x%x) at initial exchange with %s PMDA\n", uint32(ue.Got), c.Name), true
	case errors.Is(err, io.EOF):
		return eof, true
	}
	var code pcp.Error
	if errors.As(err, &code) {
		return fmt.Sprintf("pmcd: error at initial PDU exchange with %s PMDA: %s\n", c.Name, code.Error()), true
	}
	return "", false
}

// strerror is C's text of a system error ("No such file or directory").
func strerror(err error) string {
	return pcp.CodeOf(err, pcp.ErrGeneric).Error()
}
