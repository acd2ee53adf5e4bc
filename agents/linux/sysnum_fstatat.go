//go:build linux && (arm64 || riscv64)

package linux

import "syscall"

// sysFstatat is fstatat(2)'s number: these architectures have no stat(2)
// system call, only fstatat.
const sysFstatat = syscall.SYS_FSTATAT
