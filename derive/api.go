package derive

import "errors"

// RegisterDerived registers a global derived metric in the process's
// registry, pmRegisterDerived. A syntax error is a *SyntaxError, whose
// Pos is the byte offset libpcp's return value points at.
func RegisterDerived(name, expr string) error { return Global().Register(name, expr) }

// RegisterDerivedMetric is RegisterDerived with libpcp's formatted
// message, pmRegisterDerivedMetric: the call, the expression, a caret
// under the error and the reason; empty on success.
func RegisterDerivedMetric(name, expr string) (string, error) {
	err := RegisterDerived(name, expr)
	var se *SyntaxError
	if errors.As(err, &se) {
		return se.Error() + "\n", err
	}
	if err != nil {
		return err.Error() + "\n", err
	}
	return "", nil
}

// LoadDerivedConfig loads definitions into the process's registry,
// pmLoadDerivedConfig: path is files and directories separated by ':'.
// It returns the number of metrics registered.
func LoadDerivedConfig(path string) (int, error) { return Global().LoadConfig(path) }
