package pmlogger

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
)

// LoggerPort is one running logger as its port map file describes it.
type LoggerPort struct {
	PID      int // PrimaryPID for the "primary" link
	Port     int
	PMCDHost string
	Archive  string
	Note     string
}

// maxPortMapLine bounds each line read from a port map file (libpcp
// reads MAXPATHLEN).
const maxPortMapLine = 4096

// maxPortMaps bounds the files one search reads.
const maxPortMaps = 100000

// FindLocalLoggers reads the port map files under tmpDir/pmlogger as
// libpcp's __pmLogFindLocalPorts does: pid is a process id (its file,
// if the process exists), PrimaryPID (the "primary" link) or AllPIDs
// (every file named by a live pid, and the link), in name order. Files
// that cannot be read or have no port are left out.
func FindLocalLoggers(tmpDir string, pid int) ([]LoggerPort, error) {
	if tmpDir == "" {
		return nil, pcp.ErrGeneric
	}
	dir := filepath.Join(tmpDir, "pmlogger")
	var names []string
	switch pid {
	case PrimaryPID:
		names = []string{"primary"}
	case AllPIDs:
		f, err := os.Open(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, pcp.CodeOf(err, pcp.ErrGeneric)
		}
		all, err := f.Readdirnames(maxPortMaps)
		f.Close()
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, pcp.CodeOf(err, pcp.ErrGeneric)
		}
		for _, n := range all {
			if v, ok := leadingPID(n); ok && v > 1 {
				if ownfile.Alive(v) {
					names = append(names, n)
				}
			} else if n == "primary" {
				names = append(names, n)
			}
		}
		slices.Sort(names)
	default:
		if !ownfile.Alive(pid) {
			return nil, nil
		}
		names = []string{strconv.Itoa(pid)}
	}
	var out []LoggerPort
	for _, n := range names {
		lp, ok := readPortMap(filepath.Join(dir, n), n)
		if ok {
			out = append(out, lp)
		}
	}
	return out, nil
}

// leadingPID reads a file name as strtol does: leading digits.
func leadingPID(name string) (int, bool) {
	i := 0
	for i < len(name) && name[i] >= '0' && name[i] <= '9' {
		i++
	}
	if i == 0 || i > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(name[:i])
	return n, err == nil
}

func readPortMap(path, name string) (LoggerPort, bool) {
	f, err := os.Open(path)
	if err != nil {
		return LoggerPort{}, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 256), maxPortMapLine)
	var lines []string
	for len(lines) < 4 && sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) == 0 {
		return LoggerPort{}, false
	}
	port, err := strconv.Atoi(lines[0])
	if err != nil {
		return LoggerPort{}, false
	}
	lp := LoggerPort{Port: port}
	if v, err := strconv.Atoi(name); err == nil {
		lp.PID = v
	} else if name == "primary" {
		lp.PID = PrimaryPID
	} else {
		return LoggerPort{}, false
	}
	if len(lines) > 1 {
		lp.PMCDHost = lines[1]
	}
	if len(lines) > 2 {
		lp.Archive = lines[2]
	}
	if len(lines) > 3 {
		lp.Note = lines[3]
	}
	return lp, true
}

// IsLocalHost reports whether host names this host as libpcp's
// __pmIsLocalhost decides it: "localhost", a "local:" or "unix:" spec,
// or a name with an address of this host's name.
func IsLocalHost(host string) bool {
	local, _ := localHost(host)
	return local
}

// localHost is IsLocalHost, failing with EHOSTUNREACH for a name that
// does not resolve.
func localHost(host string) (bool, error) {
	if strings.EqualFold(host, "localhost") || strings.HasPrefix(host, "local:") || strings.HasPrefix(host, "unix:") {
		return true, nil
	}
	me, err := os.Hostname()
	if err != nil {
		return false, pcp.CodeOf(err, pcp.ErrGeneric)
	}
	mine, err := lookupAddrs(me)
	if err != nil {
		return false, nil
	}
	theirs, err := lookupAddrs(host)
	if err != nil {
		if inetAtonForm(host) {
			// getaddrinfo reads "34" as 0.0.0.34: an address, not this host's
			return false, nil
		}
		return false, pcp.Error(-int32(syscall.EHOSTUNREACH))
	}
	for _, a := range mine {
		if slices.Contains(theirs, a) {
			return true, nil
		}
	}
	return false, nil
}

func lookupAddrs(host string) ([]string, error) { return net.LookupHost(host) }

// inetAtonForm reports whether host is one of inet_aton's shorthand
// addresses (one to four numbers separated by dots), which getaddrinfo
// takes and Go's resolver does not.
func inetAtonForm(host string) bool {
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		if p == "" {
			return false
		}
		for i := 0; i < len(p); i++ {
			if p[i] < '0' || p[i] > '9' {
				return false
			}
		}
	}
	return true
}
