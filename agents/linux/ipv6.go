package linux

import "strconv"

// appendIPv6 formats an IPv6 address as inet_ntop does (RFC 5952: the
// longest run of two or more zero groups becomes "::", hex in lower case,
// IPv4-mapped and -compatible forms with a dotted quad).
func appendIPv6(dst []byte, ip [16]byte) []byte {
	var g [8]uint16
	for i := range g {
		g[i] = uint16(ip[2*i])<<8 | uint16(ip[2*i+1])
	}
	// inet_ntop writes ::ffff:a.b.c.d and ::a.b.c.d (not :: or ::1).
	if g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 &&
		(g[5] == 0xffff || (g[5] == 0 && (g[6] != 0 || g[7] > 1))) && g[6] != 0 {
		dst = append(dst, "::"...)
		if g[5] == 0xffff {
			dst = append(dst, "ffff:"...)
		}
		for i := 12; i < 16; i++ {
			if i > 12 {
				dst = append(dst, '.')
			}
			dst = strconv.AppendUint(dst, uint64(ip[i]), 10)
		}
		return dst
	}
	best, bestLen := -1, 1
	for i := 0; i < 8; {
		if g[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && g[j] == 0 {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	for i := 0; i < 8; i++ {
		if i == best {
			dst = append(dst, "::"...)
			i += bestLen - 1
			continue
		}
		if i > 0 && i != best+bestLen {
			dst = append(dst, ':')
		}
		dst = strconv.AppendUint(dst, uint64(g[i]), 16)
	}
	return dst
}
