package pmapi

import "syscall"

// nisDomain is getdomainname(2)'s answer.
func nisDomain() string {
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
