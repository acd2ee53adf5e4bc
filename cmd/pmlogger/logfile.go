package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
)

// openLog opens pmlogger's log as libpcp's pmOpenLog does. "-" is the
// standard error itself. A log that cannot be created is complained of
// on stderr in pmOpenLog's words and stderr serves instead (nil, with
// failed set: the caller adds pmlogger's warning after the header), as
// PCP's run goes on. One another live process writes is left alone
// (ownfile's rule, not PCP's), and stderr serves with our own notice.
func openLog(name string, stderr io.Writer, prog string) (lf *os.File, failed bool) {
	if name == "-" {
		return nil, false
	}
	lf, err := ownfile.OpenLog(name)
	var inUse *ownfile.InUseError
	switch {
	case errors.As(err, &inUse):
		fmt.Fprintf(stderr, "%s: cannot start log file \"%s\": %v; logging to standard error\n", prog, name, err)
		return nil, false
	case err != nil:
		// pmOpenLog is given the literal name "pmlogger".
		fmt.Fprintf(stderr, "pmlogger: cannot open log \"%s\" for writing : %s\n", name, pcp.TextOf(err))
		return nil, true
	}
	return lf, false
}
