package archive

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"testing"
)

// loadMetaChunked loads b through a window that reads chunk bytes at a
// time, so that it slides within records.
func loadMetaChunked(b []byte, version, chunk int) (*Meta, error) {
	s := newMetaStream(bytes.NewReader(b), len(b))
	s.chunk = chunk
	return loadMetaFrom(s, version)
}

// TestMetaStreamWindows loads QA metadata, whole and cut at many places,
// through windows of several sizes, and checks that each gives what the
// whole file in one window gives: the same metadata and the same error at
// the same offset.
func TestMetaStreamWindows(t *testing.T) {
	files := []struct {
		name     string
		version  int
		cuts     int
		raceCuts int // under -race: the 2 MB file's 40 cuts took most of the test's 18 s
	}{
		{"omnibus_v3.meta", Version3, 400, 400},
		{"20180102.meta", Version2, 40, 8},
		{"20180127.08.40.meta", Version2, 40, 40},
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel() // each loads a file of its own
			b, err := os.ReadFile(qaDir + "/" + f.name)
			if err != nil {
				t.Skip("PCP's QA archives are not installed")
			}
			cuts := f.cuts
			if raceEnabled {
				cuts = f.raceCuts
			}
			step := max(1, len(b)/cuts)
			for cut := labelSize(f.version) - 3; cut <= len(b); cut += step {
				if cut+step > len(b) {
					cut = len(b)
				}
				want, wantErr := loadMeta(b[:cut], f.version)
				for _, chunk := range []int{1, 13, 4096} {
					got, err := loadMetaChunked(b[:cut], f.version, chunk)
					var we, ge *Error
					if (wantErr == nil) != (err == nil) || wantErr != nil && (!errors.As(wantErr, &we) || !errors.As(err, &ge) || *we != *ge) {
						t.Fatalf("%s cut at %d, window %d: error %v, want %v", f.name, cut, chunk, err, wantErr)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s cut at %d, window %d: metadata differs", f.name, cut, chunk)
					}
				}
			}
		})
	}
}
