package linux

import "encoding/binary"

// utmp record layout (glibc, 64-bit and 32-bit alike): 384 bytes, the
// type a 16-bit number at 0 and the user name 32 bytes at 44.
const (
	utmpSize        = 384
	utmpUserOffset  = 44
	utmpUserLen     = 32
	utmpUserProcess = 7
)

func (x *Linux) bindLogin() {
	x.sources[srcLogin] = func() error {
		x.login = [3]uint64{}
		b, err := x.fb.read(x.utmp)
		if err != nil {
			return nil // no utmp: no sessions
		}
		for ; len(b) >= utmpSize; b = b[utmpSize:] {
			if binary.NativeEndian.Uint16(b) == utmpUserProcess {
				user := b[utmpUserOffset : utmpUserOffset+utmpUserLen]
				if user[0] != 0 {
					if n := indexByte(user, 0); string(user[:max(n, 0)]) == "root" || (n < 0 && string(user) == "root") {
						x.login[1]++
					}
					x.login[0]++
				} else {
					continue
				}
			}
			x.login[2]++
		}
		return nil
	}
	for i, n := range []string{"kernel.all.nusers", "kernel.all.nroots", "kernel.all.nsessions"} {
		x.bind(n, srcLogin, func(int32) (pcpAtom, error) { return u32(x.login[i]), nil })
	}
}

func indexByte(b []byte, c byte) int {
	for i, v := range b {
		if v == c {
			return i
		}
	}
	return -1
}
