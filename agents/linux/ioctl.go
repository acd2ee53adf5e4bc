package linux

import (
	"encoding/binary"
	"runtime"
	"syscall"
	"unsafe"
)

// Interface ioctls, as PCP's agent asks them when sysfs does not answer:
// the numbers are Linux's (linux/sockios.h, linux/wireless.h,
// linux/ethtool.h).
const (
	siocGIFCONF  = 0x8912
	siocGIFFLAGS = 0x8913
	siocGIFMTU   = 0x8921
	siocETHTOOL  = 0x8946
	siocGIWRATE  = 0x8b21
	ethtoolGSET  = 1
)

// ifreq is struct ifreq: a name and a 24-byte union.
type ifreq struct {
	name [16]byte
	data [24]byte
}

// ethtoolCmd is struct ethtool_cmd.
type ethtoolCmd struct {
	cmd           uint32
	supported     uint32
	advertising   uint32
	speed         uint16
	duplex        uint8
	port          uint8
	phyAddress    uint8
	transceiver   uint8
	autoneg       uint8
	mdioSupport   uint8
	maxtxpkt      uint32
	maxrxpkt      uint32
	speedHi       uint16
	ethTpMdix     uint8
	ethTpMdixCtrl uint8
	lpAdvertising uint32
	reserved      [2]uint32
}

// netSocket is a datagram socket for interface ioctls, opened on first
// use and kept.
type netSocket struct {
	fd     int
	opened bool
	ifr    ifreq
	ecmd   ethtoolCmd
}

func (s *netSocket) open() bool {
	if !s.opened {
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			return false
		}
		s.fd, s.opened = fd, true
	}
	return true
}

func (s *netSocket) ioctl(req uintptr, p unsafe.Pointer) bool {
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(s.fd), req, uintptr(p))
	return errno == 0
}

// request prepares s.ifr for name.
func (s *netSocket) request(name string) {
	s.ifr = ifreq{}
	copy(s.ifr.name[:15], name)
}

// mtu asks SIOCGIFMTU.
func (s *netSocket) mtu(name string) (uint32, bool) {
	if !s.open() {
		return 0, false
	}
	s.request(name)
	if !s.ioctl(siocGIFMTU, unsafe.Pointer(&s.ifr)) {
		return 0, false
	}
	return binary.NativeEndian.Uint32(s.ifr.data[:4]), true
}

// flags asks SIOCGIFFLAGS.
func (s *netSocket) flags(name string) (uint16, bool) {
	if !s.open() {
		return 0, false
	}
	s.request(name)
	if !s.ioctl(siocGIFFLAGS, unsafe.Pointer(&s.ifr)) {
		return 0, false
	}
	return binary.NativeEndian.Uint16(s.ifr.data[:2]), true
}

// ethtool asks ETHTOOL_GSET: speed in Mbit/s and duplex.
func (s *netSocket) ethtool(name string) (speed uint32, duplex uint8, ok bool) {
	if !s.open() {
		return 0, 0, false
	}
	s.request(name)
	s.ecmd = ethtoolCmd{cmd: ethtoolGSET}
	*(*uintptr)(unsafe.Pointer(&s.ifr.data[0])) = uintptr(unsafe.Pointer(&s.ecmd))
	ok = s.ioctl(siocETHTOOL, unsafe.Pointer(&s.ifr))
	runtime.KeepAlive(&s.ecmd)
	if !ok {
		return 0, 0, false
	}
	return uint32(s.ecmd.speedHi)<<16 | uint32(s.ecmd.speed), s.ecmd.duplex, true
}

// wirelessRate asks SIOCGIWRATE, the bit rate of a wireless interface.
func (s *netSocket) wirelessRate(name string) (uint32, bool) {
	if !s.open() {
		return 0, false
	}
	s.request(name)
	if !s.ioctl(siocGIWRATE, unsafe.Pointer(&s.ifr)) {
		return 0, false
	}
	return binary.NativeEndian.Uint32(s.ifr.data[:4]), true
}

// ipv4Addrs lists interface names (aliases included) with their IPv4
// address through SIOCGIFCONF, calling f for each.
func (s *netSocket) ipv4Addrs(buf []ifreq, f func(name []byte, addr [4]byte)) []ifreq {
	if !s.open() {
		return buf
	}
	if len(buf) < 32 {
		buf = make([]ifreq, 32)
	}
	for {
		conf := struct {
			len int32
			_   int32
			buf uintptr
		}{len: int32(len(buf)) * int32(unsafe.Sizeof(ifreq{})), buf: uintptr(unsafe.Pointer(&buf[0]))}
		ok := s.ioctl(siocGIFCONF, unsafe.Pointer(&conf))
		runtime.KeepAlive(buf)
		if !ok {
			return buf
		}
		n := int(conf.len) / int(unsafe.Sizeof(ifreq{}))
		if n == len(buf) {
			buf = make([]ifreq, 2*len(buf))
			continue
		}
		for i := range buf[:n] {
			r := &buf[i]
			name := r.name[:]
			for j, c := range name {
				if c == 0 {
					name = name[:j]
					break
				}
			}
			if binary.NativeEndian.Uint16(r.data[:2]) != syscall.AF_INET {
				continue
			}
			var a [4]byte
			copy(a[:], r.data[4:8])
			f(name, a)
		}
		return buf
	}
}
