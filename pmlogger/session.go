package pmlogger

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/pcpconf"
)

// Session is the recording session control channel of pmlogger -x: a
// launcher (pmRecordControl) writes one command a line on a descriptor
// pmlogger inherited. V<n> gives the protocol version, F<folio> the folio
// name, P<name> the launcher's name, R says the archive can be replayed;
// D detaches pmlogger from the launcher (it keeps logging), Q ends the
// recording, ? shows the session's state; end of file, or anything else,
// means the launcher is gone and the user is asked whether to stop
// (without a display the answer is yes). Dialogs go through
// PCP_XCONFIRM_PROG as in PCP; when that fails the text goes to the log.
type Session struct {
	Host  string    // pmcd's host name, for the dialog text
	Log   io.Writer // where complaints and failed dialogs go
	Start time.Time // when the session started (defaults to Serve's call)
	// ExecFailed, when set, is called when the dialog program cannot be
	// run, before the failure is logged: PCP 6.0.3's pmlogger forks for
	// it, and the child, its exec failed, leaves by exit(3), whose
	// handlers write the log's footer ("Log finished") once more.
	ExecFailed func()

	folio, prog string
	replay      bool
}

// sessionLimit is the longest command line PCP accepts (MAXPATHLEN).
const sessionLimit = 4096

// Serve reads commands from r until the session ends: it returns true
// when the recording is to stop (Q, or the launcher's exit answered
// "Yes"), false after a detach or when ctx is done. It closes r once it
// no longer listens, as pmlogger closes the descriptor on detach. The
// archive's size is read in the logging goroutine through l.
func (s *Session) Serve(ctx context.Context, l *Logger, r io.ReadCloser) bool {
	defer r.Close()
	if s.Start.IsZero() {
		s.Start = time.Now()
	}
	s.folio, s.prog = "<unknown>", "<unknown>"
	br := bufio.NewReaderSize(r, sessionLimit+1)
	for ctx.Err() == nil {
		line, err := br.ReadSlice('\n')
		cmd := byte('X')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			fmt.Fprintf(s.Log, "Error: absurd recording session control message: \"%.100s ...\"\n", line)
		case err != nil:
			if len(line) > 0 {
				fmt.Fprintf(s.Log, "Error: incomplete recording session control message: \"%s\"\n", line)
			}
		default:
			text := string(line[:len(line)-1])
			switch {
			case text == "Q" || text == "D" || text == "?":
				cmd = text[0]
			case strings.HasPrefix(text, "F"):
				s.folio = text[1:]
				continue
			case strings.HasPrefix(text, "P"):
				s.prog = text[1:]
				continue
			case text == "R":
				s.replay = true
				continue
			case strings.HasPrefix(text, "V0"):
				continue
			default:
				fmt.Fprintf(s.Log, "Error: illegal recording session control message: \"%s\"\n", text)
			}
		}
		if ctx.Err() != nil {
			return false
		}
		var size int64
		if l != nil {
			l.do(ctx, func() { size = l.archiveSize() })
		}
		answer := s.dialog(cmd, s.message(cmd, size))
		if cmd == 'Q' || (cmd == 'X' && answer == "Yes") {
			return true
		}
		if cmd != '?' {
			return false
		}
	}
	return false
}

// archiveSize is what the dialog reports: the data of earlier volumes and
// the metadata written so far, as pmlogger counts it.
func (l *Logger) archiveSize() int64 {
	_, meta := l.w.Offsets()
	return l.volBytes + meta
}

// message builds the dialog's text for cmd.
func (s *Session) message(cmd byte, size int64) string {
	secs := int64(time.Since(s.Start) / time.Second)
	if secs == 0 {
		secs = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "PCP recording for the archive folio \"%s\" and the host", s.folio)
	if secs < 240 {
		fmt.Fprintf(&b, " \"%s\" has been in progress for %d seconds", s.Host, secs)
	} else {
		fmt.Fprintf(&b, " \"%s\" has been in progress for %d minutes", s.Host, (secs+30)/60)
	}
	fmt.Fprintf(&b, " and in that time the pmlogger process has created an archive of %s.", sizeText(float64(size)))
	if s.replay {
		fmt.Fprintf(&b, "\n\nThis archive may be replayed with the following command:\n  $ pmafm %s replay", s.folio)
	}
	rates := func() string {
		return fmt.Sprintf("%s per hour or %s per day.", sizeText(float64(size)*3600/float64(secs)), sizeText(float64(size)*3600*24/float64(secs)))
	}
	switch cmd {
	case 'D':
		b.WriteString("\n\nThe application that launched pmlogger has asked pmlogger to continue independently and the PCP archive will grow at the rate of " + rates())
	case 'X':
		b.WriteString("\n\nThe application that launched pmlogger has exited and you must decide if the PCP recording session should be terminated or continued.  If recording is continued the PCP archive will grow at the rate of " + rates())
	case 'Q':
		b.WriteString("\n\nThe application that launched pmlogger has terminated this PCP recording session.\n")
	}
	if cmd != 'Q' {
		fmt.Fprintf(&b, "\n\nAt any time this pmlogger process may be terminated with the following command:\n  $ pmsignal -s TERM %d\n", os.Getpid())
	}
	if cmd == 'X' {
		b.WriteString("\n\nTerminate this PCP recording session now?")
	}
	return b.String()
}

// sizeText prints a size as pmlogger's dialogs do.
func sizeText(d float64) string {
	switch {
	case d < 10*1024:
		return fmt.Sprintf("%d bytes", int64(d))
	case d < 10*1024*1024:
		return fmt.Sprintf("%.1f Kbytes", d/1024)
	case d < 10*1024*1024*1024:
		return fmt.Sprintf("%.1f Mbytes", d/(1024*1024))
	}
	return fmt.Sprintf("%d Mbytes", int64(d)/(1024*1024))
}

// dialog shows text with PCP_XCONFIRM_PROG (pmconfirm) and returns the
// first line it answers; when it cannot, the text goes to the log and the
// answer is "Yes", as pmlogger does without a display.
func (s *Session) dialog(cmd byte, text string) string {
	prog, _ := pcpconf.Get("PCP_XCONFIRM_PROG")
	answer, err := s.confirm(prog, cmd, text)
	if err == nil {
		return answer
	}
	level := "Error"
	if cmd == '?' {
		level = "Warning"
	}
	fmt.Fprintf(s.Log, "\n%s: pmconfirm(1) failed for recording session dialog\nDialog:\n%s", level, text)
	return "Yes"
}

func (s *Session) confirm(prog string, cmd byte, text string) (string, error) {
	if prog == "" {
		return "", errors.New("no PCP_XCONFIRM_PROG")
	}
	dir, _ := pcpconf.Get("PCP_TMPFILE_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, "msg")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	args := []string{"-c", "-header", "PCP Archive Recording Session - " + s.prog, "-file", f.Name()}
	if cmd == 'X' {
		args = append(args, "-icon", "question", "-B", "Yes", "-b", "No")
	} else {
		args = append(args, "-icon", "info", "-b", "Close")
	}
	c := exec.Command(filepath.Clean(prog), args...)
	out, err := c.Output()
	var exited *exec.ExitError
	if err != nil && !errors.As(err, &exited) && s.ExecFailed != nil {
		s.ExecFailed()
	}
	line, _, _ := strings.Cut(string(out), "\n")
	if len(out) == 0 {
		return "", errors.New("no answer")
	}
	return line, nil
}
