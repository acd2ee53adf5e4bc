package main

import (
	"os/exec"
	"testing"
)

// privateNet is the command prefix (unshare(1)) that runs a program in a
// network namespace of its own, where binding pmcd's default port 44321
// cannot disturb the system's pmcd; nil, with the reason logged, where no
// such namespace can be made (tests then check only what needs no bind).
func privateNet(t *testing.T) []string {
	t.Helper()
	for _, p := range [][]string{{"unshare", "-n"}, {"unshare", "-rn"}} {
		if exec.Command(p[0], append(p[1:], "true")...).Run() == nil {
			return p
		}
	}
	t.Log("no private network namespace (unshare -n and -rn fail)")
	return nil
}
