package pmlogger

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gopcp/gopcp/archive"
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
	var lg *Logger
	used, err := eachName(name, now, opt.Log, func(base string) (err error) {
		opt.Archive = base
		lg, err = New(ctx, src, cfg, opt)
		return err
	})
	return lg, used, err
}

// CreateNamed makes the three files of the archive NewNamed would make,
// under the name it would choose, and writes nothing into them: what PCP's
// pmlogger leaves when it stops after creating its archive and before
// writing the label (as for a -T it cannot parse). log is as Options.Log.
func CreateNamed(name string, now time.Time, log io.Writer) (string, error) {
	return eachName(name, now, log, func(base string) error {
		w, err := archive.Create(base, archive.WriterOptions{})
		if err != nil {
			return err
		}
		return w.Close()
	})
}

// eachName calls create with the name expanded from name, and then with
// the "-NN" names while a name is taken and the name had conversions,
// reporting each name taken to log. It returns the last name tried.
func eachName(name string, now time.Time, log io.Writer, create func(archive string) error) (string, error) {
	base, uniq, err := ArchiveName(name, now)
	if err != nil {
		return "", err
	}
	tried := base
	for suff := -1; suff < 99; suff++ {
		tried = base
		if suff >= 0 {
			tried = fmt.Sprintf("%s-%02d", base, suff)
		}
		err = create(tried)
		var pe *os.PathError
		if errors.Is(err, os.ErrExist) && errors.As(err, &pe) && log != nil {
			fmt.Fprintf(log, "__pmLogNewFile: \"%s\" already exists, not over-written\n", pe.Path)
		}
		if err == nil || !errors.Is(err, os.ErrExist) || !uniq {
			break
		}
	}
	return tried, err
}
