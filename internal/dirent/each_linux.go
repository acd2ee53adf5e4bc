package dirent

import "syscall"

// Each reads the open directory fd to its end with getdents64(2) into
// buf and calls fn with each entry's name (pointing into buf: valid
// during the call) and type, "." and ".." included where the kernel
// lists them. It stops at fn's first error and returns it; a failed
// read is its bare errno, and a record that is not whole is EIO (the
// kernel never writes a part). An interrupted read is tried again. buf
// must hold the longest entry (a few hundred bytes; 8 KiB reads a
// directory in few calls).
func Each(fd int, buf []byte, fn func(name []byte, typ byte) error) error {
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		if err := records(buf[:n], fn); err != nil {
			return err
		}
	}
}

// records calls fn with each record of b, all of which must be whole.
func records(b []byte, fn func(name []byte, typ byte) error) error {
	for len(b) > 0 {
		name, typ, rest, ok := Next(b)
		if !ok {
			return syscall.EIO
		}
		if err := fn(name, typ); err != nil {
			return err
		}
		b = rest
	}
	return nil
}
