package main

import (
	"os"

	"github.com/gopcp/gopcp/pmlogger"
)

// controlEnv reads PMLOGGER_PORT and PMLOGGER_LOCAL for the control
// port, as PCP's pmlogger reads them.
func controlEnv() pmlogger.ControlEnv {
	var env pmlogger.ControlEnv
	if v, ok := os.LookupEnv("PMLOGGER_PORT"); ok {
		env.Port = &v
	}
	env.Local = os.Getenv("PMLOGGER_LOCAL")
	return env
}
