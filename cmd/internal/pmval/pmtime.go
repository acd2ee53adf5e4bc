package pmval

import "github.com/gopcp/gopcp/internal/cli"

// timeControl is -g and -p: PCP's pmval hands its timing to pmtime (the
// GUI time control of PCP's pcp-gui), started for -g, reached at
// 127.0.0.1 on -p's port otherwise, once the header's first line is out.
// Ours has no pmtime protocol, so it fails as PCP's does where there is
// no pmtime (cli.TimeControl).
func (v *valuer) timeControl() error {
	port := v.p.GuiPort
	if v.p.GuiMode {
		port = 0
	}
	return exitStatus(cli.TimeControl(port, v.archive, v.errw, v.prog))
}
