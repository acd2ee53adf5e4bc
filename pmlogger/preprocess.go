package pmlogger

import (
	"path/filepath"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pmns"
)

// Preprocess runs a configuration through the pmcpp language as PCP's
// pmlogger does ("pmcpp -rs -I $PCP_VAR_DIR/config/pmlogger"): %include,
// %define, %ifdef/%ifndef/%else/%endif, %undef and %shell control lines,
// with %name and %{name} macro references; '#' stays a comment. file is
// the configuration's path ("" for standard input), which line markers
// and relative includes use. On error the output is what pmcpp would have
// written before stopping and the error is a *pmns.CPPError, whose Report
// is pmcpp's message.
func Preprocess(src []byte, file string) ([]byte, error) {
	var inc []string
	if dir, ok := pcpconf.Get("PCP_VAR_DIR"); ok {
		inc = append(inc, filepath.Join(dir, "config", "pmlogger"))
	}
	return pmns.Preprocess(src, pmns.PreprocessOptions{
		Name:        file,
		IncludeDirs: inc,
		ShellStyle:  true,
		Restrict:    true,
		AllowShell:  true,
	})
}
