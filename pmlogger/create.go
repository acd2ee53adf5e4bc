package pmlogger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/gopcp/gopcp/pmapi"
)

// NewNamed is New for an archive named as on pmlogger's command line:
// strftime conversions in name are expanded for now (ArchiveName) and,
// when there were any, a name already taken is made unique with a "-NN"
// suffix (00 to 98), as a re-execution within the minute needs. Each
// name found taken is reported to opt.Log with libpcp's words.
// opt.Archive is ignored; the name used is returned, with the error for
// the last name tried when none could be made, or a *NameError when the
// name's expansion fails.
func NewNamed(ctx context.Context, src pmapi.Source, cfg *Config, opt Options, name string, now time.Time) (*Logger, string, error) {
	base, uniq, err := ArchiveName(name, now)
	if err != nil {
		return nil, "", err
	}
	var lg *Logger
	for suff := -1; suff < 99; suff++ {
		opt.Archive = base
		if suff >= 0 {
			opt.Archive = fmt.Sprintf("%s-%02d", base, suff)
		}
		lg, err = New(ctx, src, cfg, opt)
		var pe *os.PathError
		if errors.Is(err, os.ErrExist) && errors.As(err, &pe) && opt.Log != nil {
			fmt.Fprintf(opt.Log, "__pmLogNewFile: \"%s\" already exists, not over-written\n", pe.Path)
		}
		if err == nil || !errors.Is(err, os.ErrExist) || !uniq {
			break
		}
	}
	return lg, opt.Archive, err
}
