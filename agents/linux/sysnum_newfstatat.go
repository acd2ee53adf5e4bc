//go:build linux && (amd64 || mips64 || mips64le || ppc64 || ppc64le || s390x)

package linux

import "syscall"

// sysFstatat is fstatat(2)'s number: these architectures name it
// newfstatat and have stat(2) as well, but arm64 and riscv64 have only
// fstatat, so the agent calls it everywhere.
const sysFstatat = syscall.SYS_NEWFSTATAT
