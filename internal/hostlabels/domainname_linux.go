package hostlabels

import "syscall"

// domainName is the host's NIS domain name, as getdomainname(2) gives it.
func domainName() string {
	var u syscall.Utsname
	if syscall.Uname(&u) != nil {
		return ""
	}
	b := make([]byte, 0, len(u.Domainname))
	for _, c := range u.Domainname {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b)
}
