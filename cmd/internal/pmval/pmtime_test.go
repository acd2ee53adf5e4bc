package pmval

import (
	"net"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestTimeControlAgainstPCP: -g and -p hand PCP's pmval's timing to
// pmtime, which is not installed here (pcp-gui): -g then fails to start
// it and -p to reach it, each after the header's first line, with
// libpcp_gui's words (its return codes read as errnos); a port of 0 or
// below is no -p at all, one past 65535 wraps as htons takes it. Ours
// must say and do the same.
func TestTimeControlAgainstPCP(t *testing.T) {
	archive := clitest.QAArchive(t, "20180102")
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // a port just freed: nothing listens there
	free := strconv.Itoa(port)
	a := func(args ...string) []string {
		return append(args, "-a", archive, "-s", "2", "kernel.all.load")
	}
	cases := []clitest.Case{
		{Name: "g", Args: a("-g")},
		{Name: "g r", Args: a("-g", "-r")},
		{Name: "g t", Args: a("-g", "-t", "10m")},
		{Name: "g z", Args: a("-g", "-z")},
		{Name: "g Z", Args: a("-g", "-Z", "UTC")},
		{Name: "g d", Args: a("-g", "-d")},
		{Name: "g p", Args: a("-g", "-p", free)},
		{Name: "g bad metric", Args: []string{"-g", "-a", archive, "no.such.metric"}},
		{Name: "p refused", Args: a("-p", free)},
		{Name: "p wrapped", Args: a("-p", strconv.Itoa(port+65536))},
		{Name: "p 0", Args: a("-p", "0")},
		{Name: "p negative", Args: a("-p", "-5")},
		{Name: "p not a number", Args: a("-p", "abc")},
		{Name: "p z", Args: a("-p", free, "-z")},
		{Name: "p", Args: a("-p")},
	}
	clitest.CompareLocal(t, "pmval", run, cases)
}
