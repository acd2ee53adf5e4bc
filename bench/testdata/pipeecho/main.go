// Command pipeecho answers 92-byte requests on its standard input with
// 400 bytes on its standard output, as a pipe agent does, in one of three
// ways (MODE): "plain", Go's blocking reads and writes of os.Stdin and
// os.Stdout; "polled", the pipe ends opened again non-blocking and read
// and written with raw calls through Go's poller (pmda.PipeStreams'
// way); "raw", blocking raw calls. bench/testdata/pipedrive.c sends the
// requests; perf counts the answering process:
//
//	go build -o /tmp/pipeecho ./bench/testdata/pipeecho
//	cc -O2 -o /tmp/drive bench/testdata/pipedrive.c
//	(MODE=polled /tmp/drive 40000 50 /tmp/pipeecho > /tmp/drive.out &)
//	sleep 1.3; perf stat -e task-clock,context-switches,syscalls:sys_enter_write \
//	    -p $(awk '{print $2}' /tmp/drive.out) -- sleep 1.5
package main

import (
	"os"
	"syscall"
	"unsafe"
)

func main() {
	switch os.Getenv("MODE") {
	case "polled":
		polled()
	case "raw":
		raw()
	default:
		plain()
	}
}

func plain() {
	in, out := make([]byte, 92), make([]byte, 400)
	for {
		for n := 0; n < len(in); {
			k, err := os.Stdin.Read(in[n:])
			if err != nil {
				return
			}
			n += k
		}
		if _, err := os.Stdout.Write(out); err != nil {
			return
		}
	}
}

func raw() {
	in, out := make([]byte, 92), make([]byte, 400)
	for {
		for n := 0; n < len(in); {
			k, _, e := syscall.RawSyscall(syscall.SYS_READ, 0, uintptr(unsafe.Pointer(&in[n])), uintptr(len(in)-n))
			if e == syscall.EINTR {
				continue
			}
			if e != 0 || k == 0 {
				return
			}
			n += int(k)
		}
		syscall.RawSyscall(syscall.SYS_WRITE, 1, uintptr(unsafe.Pointer(&out[0])), uintptr(len(out)))
	}
}

func polled() {
	open := func(fd, mode int) *os.File {
		nfd, err := syscall.Open("/proc/self/fd/"+string(rune('0'+fd)), mode|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != nil {
			panic(err)
		}
		return os.NewFile(uintptr(nfd), "pipe")
	}
	rc, _ := open(0, syscall.O_RDONLY).SyscallConn()
	wc, _ := open(1, syscall.O_WRONLY).SyscallConn()
	in, out := make([]byte, 92), make([]byte, 400)
	var n, k int
	eof := false
	readFn := func(fd uintptr) bool {
		m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&in[n])), uintptr(len(in)-n))
		if e == syscall.EAGAIN {
			return false
		}
		eof, k = m == 0 || e != 0, int(m)
		return true
	}
	writeFn := func(fd uintptr) bool {
		syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&out[0])), uintptr(len(out)))
		return true
	}
	for {
		for n = 0; n < len(in); n += k {
			if rc.Read(readFn); eof {
				return
			}
		}
		wc.Write(writeFn)
	}
}
