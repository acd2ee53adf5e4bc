package pmlogger

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
)

// The operations of pmlogger's [access] section, as pmlc clients are
// allowed or denied them.
const (
	OpAdvisory  = 1 << iota // pmlc's "log advisory ..."
	OpMandatory             // "log mandatory ...", "new volume"
	OpEnquire               // "query", "status"

	opAllLogger = OpAdvisory | OpMandatory | OpEnquire
)

// AccessError is an [access] statement PCP's pmlogger refuses while
// reading its configuration (an unknown host, a clash with an earlier
// statement): its text is pmlogger's, naming the statement's line.
type AccessError struct {
	Line int
	Err  error
}

func (e *AccessError) Error() string { return fmt.Sprintf("error was on line %d", e.Line) }

func (e *AccessError) Unwrap() error { return e.Err }

// BuildAccess turns the [access] section into host access controls with
// libpcp's rules (access.Control): a client's permissions are those of the
// most specific statements matching its address, a client denied every
// operation is refused at connection, and one no statement matches may
// do everything. It returns nil for a configuration without statements.
// notify receives libpcp's complaints with the level pmNotifyErr gives
// them, "Warning" (a Unix socket pattern's path, which is ignored) or
// "Error" (a statement clashing with an earlier one for some of its
// addresses is noted and the rest kept); a statement that adds nothing
// is an *AccessError.
func BuildAccess(rules []AccessRule, notify func(level, msg string)) (*access.Control, error) {
	if len(rules) == 0 {
		return nil, nil
	}
	acc := access.New(access.Options{Ops: opAllLogger})
	for _, r := range rules {
		spec, deny := r.masks()
		for i, h := range r.Hosts {
			err := acc.AddHost(h, spec, deny)
			// libpcp warns of a path as it reads the pattern,
			// before it adds (or refuses) the addresses.
			for _, w := range acc.Warnings() {
				notify("Warning", w)
			}
			notes := acc.Notes()
			if err != nil && len(notes) == 0 {
				notes = []string{hostErrorText(h, err)}
			}
			for _, n := range notes {
				notify("Error", n)
			}
			if err != nil {
				line := r.Line
				if i < len(r.HostLines) {
					line = r.HostLines[i]
				}
				return nil, &AccessError{Line: line, Err: err}
			}
		}
	}
	return acc, nil
}

// masks is the statement's operations and those of them it denies, as
// pmlogger's grammar computes them: "allow h : ops" denies none of ops,
// "disallow h : ops" all of them, "all" speaks of every operation, and
// "all except ops" of every operation with ops taking the opposite side.
func (r AccessRule) masks() (spec, deny int) {
	ops, all := 0, false
	for _, o := range r.Ops {
		switch o {
		case "all":
			all = true
		case "advisory":
			ops |= OpAdvisory
		case "mandatory":
			ops |= OpMandatory
		case "enquire":
			ops |= OpEnquire
		}
	}
	switch {
	case all && r.Except:
		if r.Allow {
			return opAllLogger, ops
		}
		return opAllLogger, opAllLogger &^ ops
	case all:
		if r.Allow {
			return opAllLogger, 0
		}
		return opAllLogger, opAllLogger
	case r.Allow:
		return ops, 0
	}
	return ops, ops
}

// hostErrorText is libpcp's complaint about a host it cannot add, where
// pmcd.Access has made none (a failed lookup makes its own).
func hostErrorText(host string, err error) string {
	var pe pcp.Error
	if errors.As(err, &pe) && pe.Code() == -int32(syscall.EHOSTDOWN) {
		return "Can't get host name/IP address, giving up"
	}
	return fmt.Sprintf("Bad IP address wildcard, %s", host)
}
