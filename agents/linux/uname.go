package linux

import (
	"os"
	"strings"
	"syscall"
	"unsafe"
)

// unameData is uname(2) and the distribution's name, read once.
type unameData struct {
	sysname, nodename, release, version, machine, distro string
	pmdaUname                                            string
	buf                                                  []byte
}

func (x *Linux) bindUname() {
	u := &x.uname
	x.sources[srcUname] = func() error {
		var un syscall.Utsname
		if err := syscall.Uname(&un); err != nil {
			return err
		}
		u.sysname = keepString(u.sysname, utsString(un.Sysname[:]))
		u.nodename = keepString(u.nodename, utsString(un.Nodename[:]))
		u.release = keepString(u.release, utsString(un.Release[:]))
		u.version = keepString(u.version, utsString(un.Version[:]))
		u.machine = keepString(u.machine, utsString(un.Machine[:]))
		u.buf = u.buf[:0]
		for i, s := range [...]string{u.sysname, u.nodename, u.release, u.version, u.machine} {
			if i > 0 {
				u.buf = append(u.buf, ' ')
			}
			u.buf = append(u.buf, s...)
		}
		u.pmdaUname = keepString(u.pmdaUname, u.buf)
		if u.distro == "" {
			u.distro = x.distro()
		}
		return nil
	}
	for name, p := range map[string]*string{
		"kernel.uname.sysname": &u.sysname, "kernel.uname.nodename": &u.nodename,
		"kernel.uname.release": &u.release, "kernel.uname.version": &u.version,
		"kernel.uname.machine": &u.machine, "kernel.uname.distro": &u.distro,
		"hinv.machine": &u.machine,
	} {
		x.bind(name, srcUname, func(int32) (pcpAtom, error) { return str(*p), nil })
	}
}

// utsString is a NUL-terminated uname field, as a view of the array.
func utsString(b []int8) []byte {
	u := unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b))
	for i, c := range u {
		if c == 0 {
			return u[:i]
		}
	}
	return u
}

// distro names the distribution from the first release file found, as
// PCP's agent does: /etc/debian_version (prefixed "Debian "), then the
// Oracle, Fedora, Red Hat, Slackware, SuSE and LSB files; "?" if none.
func (x *Linux) distro() string {
	for i, f := range []string{"debian_version", "oracle-release", "fedora-release",
		"redhat-release", "slackware-version", "SuSE-release", "lsb-release"} {
		b, err := os.ReadFile(x.etc + "/" + f)
		if err != nil {
			continue
		}
		s := string(b)
		if i == 0 {
			s = "Debian " + s
		}
		if i == 6 {
			s = strings.TrimPrefix(strings.TrimPrefix(s, "DISTRIB_ID = "), "DISTRIB_ID=")
		}
		s, _, _ = strings.Cut(s, "\n")
		return s
	}
	return "?"
}
