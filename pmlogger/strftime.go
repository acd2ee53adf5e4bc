package pmlogger

import (
	"time"

	"github.com/gopcp/gopcp/internal/ctime"
)

// strftime is the C library's strftime(3), as pmlogger expands archive
// names with it.
func strftime(format string, t time.Time, size int) (string, bool) {
	return ctime.Strftime(format, t, size)
}
