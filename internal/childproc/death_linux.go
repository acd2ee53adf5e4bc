package childproc

import "os/exec"

// deathSignal says whether cmd's child is to be signalled when its
// parent thread ends.
func deathSignal(cmd *exec.Cmd) bool {
	return cmd.SysProcAttr != nil && cmd.SysProcAttr.Pdeathsig != 0
}
