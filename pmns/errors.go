package pmns

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// ErrShellDisabled is why a #shell directive fails unless Options.AllowShell
// is set: pmcpp would run the command, which a library should not do for
// whoever wrote the file.
var ErrShellDisabled = errors.New("pmns: #shell directives are disabled")

// Diagnostic is one message libpcp prints while refusing a PMNS.
type Diagnostic struct {
	File string // the file as pmcpp's line markers name it
	Line int    // libpcp's line number; zero or less when the message has none
	Msg  string
	// Text is the line as libpcp's reader held it (whitespace squeezed);
	// Col is where libpcp puts its caret under Text, or -1 for no caret.
	Text string
	Col  int
}

// String is the diagnostic on one line.
func (d Diagnostic) String() string {
	msg := strings.TrimRight(d.Msg, "\n")
	if d.Line > 0 {
		return fmt.Sprintf("[%s:%d] %s", d.File, d.Line, msg)
	}
	return msg
}

// report is the diagnostic exactly as libpcp prints it.
func (d Diagnostic) report() string {
	var b strings.Builder
	if d.Line > 0 {
		fmt.Fprintf(&b, "[%s:%d] ", d.File, d.Line)
	}
	fmt.Fprintf(&b, "Error Parsing ASCII PMNS: %s\n", d.Msg)
	if d.Line > 0 {
		b.WriteString("    " + d.Text)
		if !strings.HasSuffix(d.Text, "\n") {
			b.WriteString("\n")
		}
		if d.Col >= 0 {
			b.WriteString("    " + string(caretLine([]byte(d.Text), d.Col)))
		}
	}
	return b.String()
}

// caretLine is text blanked up to col, then a caret: libpcp keeps the
// whitespace so tabs line up, and overwrites its line buffer with the result.
func caretLine(text []byte, col int) []byte {
	out := make([]byte, 0, col+2)
	for i := 0; i < col; i++ {
		if i < len(text) && isSpace(text[i]) {
			out = append(out, text[i])
		} else {
			out = append(out, ' ')
		}
	}
	return append(out, '^', '\n')
}

// CPPError is pmcpp's refusal of its input; pmcpp stops at the first.
type CPPError struct {
	File string
	Line int    // zero when the error concerns the whole file
	Text string // the offending line, as pmcpp held it
	Msg  string
	Err  error // an underlying cause, such as ErrShellDisabled
}

func (e *CPPError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("pmcpp: %s[%d]: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("pmcpp: %s: %s", e.File, e.Msg)
}

func (e *CPPError) Unwrap() error { return e.Err }

// Report is the error exactly as pmcpp prints it on its standard error.
func (e *CPPError) Report() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "pmcpp: %s[%d]: %s", e.File, e.Line, e.Text)
		if !strings.HasSuffix(e.Text, "\n") {
			b.WriteString("\n")
		}
	} else {
		fmt.Fprintf(&b, "pmcpp: %s:\n", e.File)
	}
	fmt.Fprintf(&b, "pmcpp: Error: %s\n", e.Msg)
	return b.String()
}

// ParseError is a PMNS that PCP would refuse. errors.Is(err, pcp.ErrPMNS)
// holds for a malformed file; a file that cannot be opened carries the
// negated errno as its Code and the operating system's error.
type ParseError struct {
	Code  pcp.Error
	Diags []Diagnostic // libpcp's messages, in the order it prints them
	CPP   *CPPError    // set when the failure was pmcpp's
	Err   error
}

// cppExit is libpcp's message when pmcpp fails.
const cppExit = "pmcpp returned non-zero exit status"

func (e *ParseError) Error() string {
	switch {
	case e.CPP != nil && (len(e.Diags) == 0 || e.Diags[0].Msg == cppExit):
		return "pmns: " + e.CPP.Error()
	case len(e.Diags) > 0:
		return "pmns: " + e.Diags[0].String()
	case e.Err != nil:
		return "pmns: " + e.Err.Error()
	}
	return fmt.Sprintf("pmns: error %d", int32(e.Code))
}

func (e *ParseError) Unwrap() []error {
	errs := []error{e.Code}
	if e.CPP != nil {
		errs = append(errs, e.CPP)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// Report is everything PCP prints on its standard error while refusing the
// file: pmcpp's message, if any, then libpcp's. (When libpcp's parser stops
// before the end of a failing pmcpp's output, the two processes write at the
// same time and PCP's order varies; pmcpp's usually comes first.)
func (e *ParseError) Report() string {
	var b strings.Builder
	if e.CPP != nil {
		b.WriteString(e.CPP.Report())
	}
	for _, d := range e.Diags {
		b.WriteString(d.report())
	}
	return b.String()
}
