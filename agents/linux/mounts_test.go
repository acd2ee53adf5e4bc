package linux

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestMountsReadOncePerRefresh: a fetch of the filesystem and tmpfs
// metrics reads /proc/self/mounts once, and the next fetch reads it
// again, seeing what changed.
func TestMountsReadOncePerRefresh(t *testing.T) {
	x := fixture(t)
	var ids []pcp.PMID
	for _, n := range []string{"filesys.capacity", "tmpfs.capacity", "hinv.nfilesys"} {
		ids = append(ids, findDesc(n).desc(Domain).PMID)
	}
	reads := 0
	extra := ""
	readHook = func(path string) ([]byte, error) {
		b, err := os.ReadFile(path)
		if strings.HasSuffix(path, "/self/mounts") {
			reads++
			b = append(b, extra...)
		}
		return b, err
	}
	defer func() { readHook = nil }()
	for i, add := range []string{"", "/dev/vdz9 /mnt/z ext4 rw 0 0\n"} {
		reads, extra = 0, add
		if err := x.Refresh(context.Background(), ids); err != nil {
			t.Fatal(err)
		}
		if reads != 1 {
			t.Errorf("fetch %d: /proc/self/mounts read %d times, want 1", i, reads)
		}
	}
	found := false
	for _, in := range x.indoms[filesysInDom].list() {
		found = found || in.Name == "/dev/vdz9"
	}
	if !found {
		t.Errorf("the second fetch did not see the new mount: %v", x.indoms[filesysInDom].list())
	}
}
