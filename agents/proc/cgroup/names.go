package cgroup

import "strings"

// unhex is systemd's unhexchar: a hex digit's value, or -EINVAL.
func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -22
}

// unescape is pmdaproc's unit_name_unescape: systemd's \xHH escapes in
// cgroup names become bytes (bad digits give the bytes PCP's arithmetic
// gives). An escape cut short by the end of the name reads NULs where PCP
// reads past the end of the name (into its zeroed path buffer), and ends
// the name.
func unescape(name string) string {
	if !strings.Contains(name, `\`) {
		return name
	}
	at := func(i int) byte {
		if i < len(name) {
			return name[i]
		}
		return 0
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if name[i] == '\\' && at(i+1) == 'x' {
			a, c := unhex(at(i+2)), unhex(at(i+3))
			b.WriteByte(uint8(a)<<4 | uint8(c))
			if i+3 >= len(name) {
				break
			}
			i += 3
			continue
		}
		b.WriteByte(name[i])
	}
	return b.String()
}

// sha256Len is the length of a container ID.
const sha256Len = 64

// containerID is cgroup_container_search: the container ID a cgroup name
// ends in (/docker-ID.scope, /libpod-ID.scope, /docker/ID), or "".
func containerID(cgroup string) string {
	// endp is where PCP's search starts: the first newline, else one past
	// the terminating NUL, which its length arithmetic counts.
	endp := len(cgroup) + 1
	if k := strings.IndexByte(cgroup, '\n'); k >= 0 {
		endp = k
	}
	p := strings.LastIndexByte(cgroup[:min(endp, len(cgroup))], '/')
	if p <= 0 {
		return ""
	}
	rest := cgroup[p:]
	if strings.HasPrefix(rest, "/libpod-") || strings.HasPrefix(rest, "/docker-") {
		id := rest[8:]
		if k := strings.IndexByte(id, '.'); k == sha256Len {
			return id[:k]
		}
		return ""
	}
	if endp-p-2 == sha256Len {
		return cgroup[p+1 : p+1+sha256Len]
	}
	return ""
}

// cgroupName is the instance name pmdaproc gives the directory rel (the
// path below the mount, "" for the mount itself).
func cgroupName(rel string) string {
	if rel == "" {
		return "/"
	}
	return "/" + rel
}
