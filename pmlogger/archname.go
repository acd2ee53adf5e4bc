package pmlogger

import (
	"fmt"
	"strings"
	"time"
)

// maxPathLen is MAXPATHLEN, the buffer pmlogger expands an archive name
// into.
const maxPathLen = 4096

// ArchiveName expands strftime(3) conversions in an archive base name
// at time t, as pmlogger does for names like "%Y%m%d.%H.%M" (the form
// pmlogger_check and re-executions after SIGUSR2 rely on): the C
// library's conversions in the C locale, into a buffer of MAXPATHLEN
// bytes. It reports whether the name had any '%', which is when pmlogger
// adds a "-NN" suffix rather than fail on an existing archive. An
// expansion that does not fit, or is empty, is a *NameError, on which
// PCP's pmlogger exits.
func ArchiveName(pattern string, t time.Time) (string, bool, error) {
	if !strings.Contains(pattern, "%") {
		return pattern, false, nil
	}
	name, ok := strftime(pattern, t, maxPathLen)
	if !ok {
		return "", true, &NameError{Pattern: pattern}
	}
	return name, true, nil
}

// NameError is an archive name whose strftime expansion fails, on which
// PCP's pmlogger exits with "Error: strftime failed on ...".
type NameError struct {
	Pattern string
}

func (e *NameError) Error() string { return fmt.Sprintf("strftime failed on \"%s\"", e.Pattern) }
