package cli

import "github.com/gopcp/gopcp/internal/getopt"

// What the tools use of internal/getopt, under the names they know.

// UsageText is the usage message of pmUsageMessage (getopt.UsageText).
func UsageText(cmd *Command, name string) string { return getopt.UsageText(cmd.core(nil), name) }

// Report is what pmUsageMessage prints after a failed or -V parse
// (getopt.Parsed.Report).
func (p *Parsed) Report(cmd *Command) string { return p.Parsed.Report(cmd.core(p)) }

// Strtol reads a decimal number as C's strtol(s, &end, 10) does
// (getopt.Strtol).
func Strtol(s string) (int64, bool) { return getopt.Strtol(s) }

// DebugEnv is what libpcp makes of $PCP_DEBUG as it starts
// (getopt.DebugEnv).
func DebugEnv(environ []string) (spec, warning string) { return getopt.DebugEnv(environ) }
