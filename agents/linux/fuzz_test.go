package linux

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// FuzzSources feeds arbitrary bytes as the contents of every file the
// agent reads (one file chosen by the first byte gets the data, the
// others the fixture's contents) and fetches every metric: no input may
// panic or hang a refresh.
func FuzzSources(f *testing.F) {
	root := "testdata/fixture"
	var files []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			files = append(files, p)
			b, _ := os.ReadFile(p)
			f.Add(append([]byte{byte(len(files) - 1)}, b...))
		}
		return nil
	})
	f.Add([]byte("\x00"))
	f.Add([]byte("\x01Node 0, zone\n  per-node stats\n pages free\n protection: (,,,"))
	f.Add([]byte("\x02cpu99999999999 1 2\nintr\n"))
	x, err := newLinux(Options{ProcRoot: root + "/proc", SysRoot: root + "/sys", EtcRoot: root + "/etc",
		UtmpPath: root + "/utmp", InterfacesConf: root + "/none", NoCache: true})
	if err != nil {
		f.Fatal(err)
	}
	a, err := x.agent(Domain)
	if err != nil {
		f.Fatal(err)
	}
	var pmids []pcp.PMID
	for i := range pcpDescs {
		if _, ok := x.boundAt(i); ok {
			pmids = append(pmids, pcpDescs[i].desc(Domain).PMID)
		}
	}
	f.Cleanup(func() { readHook = nil })
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		target := files[int(data[0])%len(files)]
		body := data[1:]
		readHook = func(path string) ([]byte, error) {
			if strings.HasSuffix(path, strings.TrimPrefix(target, root)) {
				return body, nil
			}
			if strings.HasPrefix(path, root) {
				return os.ReadFile(path)
			}
			return nil, os.ErrNotExist
		}
		defer func() { readHook = nil }()
		if _, err := a.Fetch(context.Background(), 0, pmids); err != nil {
			t.Fatal(err)
		}
	})
}
