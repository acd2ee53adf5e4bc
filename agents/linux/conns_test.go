package linux

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestConnsReadWhatIsAsked: a fetch of one kind of socket count reads
// that kind's tables and no other (the TCP table costs the kernel a walk
// of its whole connection hash).
func TestConnsReadWhatIsAsked(t *testing.T) {
	x := fixture(t)
	var read []string
	readHook = func(path string) ([]byte, error) {
		if i := strings.Index(path, "/proc/net/"); i >= 0 {
			read = append(read, path[i+len("/proc/"):])
		}
		return os.ReadFile(path)
	}
	defer func() { readHook = nil }()
	for _, tt := range []struct {
		metric string
		want   []string
	}{
		{"network.tcpconn.established", []string{"net/tcp", "net/tcp6"}},
		{"network.udpconn6.listen", []string{"net/udp", "net/udp6"}},
		{"network.rawconn.count", []string{"net/raw", "net/raw6"}},
		{"network.unix.stream.count", []string{"net/unix"}},
	} {
		read = nil
		if err := x.Refresh(context.Background(), []pcp.PMID{findDesc(tt.metric).desc(Domain).PMID}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(read, tt.want) {
			t.Errorf("%s: read %v, want %v", tt.metric, read, tt.want)
		}
	}
}
