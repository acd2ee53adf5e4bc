package pmproxy

import (
	"fmt"
	"testing"
)

// TestRequestPlan: the sockets requestPlan asks for, the rows of PCP's
// port tables that TestLogLikePCP compares end to end, and the cases a
// test cannot bind (a name as interface, more interfaces than ports).
func TestRequestPlan(t *testing.T) {
	for _, c := range []struct {
		ports  []int
		ifaces []string
		want   string
	}{
		{[]int{44322, 44323}, nil, "[{tcp4 0.0.0.0 44322 inet INADDR_ANY} {tcp6 :: 44322 ipv6 INADDR_ANY} {tcp4 0.0.0.0 44323 inet INADDR_ANY} {tcp6 :: 44323 ipv6 INADDR_ANY}] []"},
		{[]int{0}, nil, "[{tcp4 127.0.0.1 0 inet INADDR_LOOPBACK} {tcp6 ::1 0 ipv6 INADDR_ANY}] []"},
		{[]int{1, 1}, nil, "[{tcp4 0.0.0.0 1 inet INADDR_ANY} {tcp6 :: 1 ipv6 INADDR_ANY} {tcp4 0.0.0.0 1 inet INADDR_ANY} {tcp6 :: 1 ipv6 INADDR_ANY}] [1]"},
		// the second drop is of a port -1, the entries a and b dropped
		{[]int{1, 2, 1, 2}, []string{"::1"}, "[{tcp6 ::1 1 ipv6 ::1} {tcp6 ::1 2 ipv6 ::1} {tcp6 ::1 2 ipv6 ::1} {tcp6 ::1 2 ipv6 ::1}] [1 2 -1]"},
		{[]int{1}, []string{"127.0.0.1", "::1"}, "[{tcp4 127.0.0.1 1 inet 127.0.0.1}] []"},
		{[]int{1, 2}, []string{"localhost", "127.0.0.1"}, "[] []"},
		{[]int{1, 2}, []string{"127.0.0.1", "localhost"}, "[{tcp4 127.0.0.1 1 inet 127.0.0.1} {tcp4 127.0.0.1 2 inet 127.0.0.1}] []"},
		{[]int{1}, []string{"INADDR_LOOPBACK"}, "[{tcp4 127.0.0.1 1 inet INADDR_LOOPBACK} {tcp6 ::1 1 ipv6 INADDR_ANY}] []"},
		{nil, nil, "[] []"},
	} {
		specs, dropped := requestPlan(c.ports, c.ifaces)
		if got := fmt.Sprintf("%v %v", specs, dropped); got != c.want {
			t.Errorf("requestPlan(%v, %q) = %v %v, want %s", c.ports, c.ifaces, specs, dropped, c.want)
		}
	}
}
