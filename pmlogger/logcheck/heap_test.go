package logcheck

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"testing"
	"time"
)

// TestCompressedVolumeNotHeld checks an archive whose volume is an .xz
// file of blocks (256 KiB here; pmlogger_daily's are 10 MiB) with -m,
// passes 0 to 2, the ones that read whole files: what they allocate is
// a block and the metadata, under half the volume. pmlogcheck held each
// file whole in pass 0 and again in pass 1 (23 MB allocated here; 2.1 GB
// of resident memory for a 344 MB volume against PCP's 75 MB). The
// allocation is counted (runtime/metrics' total of heap allocations),
// not sampled, so the bound holds however the collector runs.
func TestCompressedVolumeNotHeld(t *testing.T) {
	xzProg, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz is not installed")
	}
	orig := filepath.Join(qaDir, "20180127.08.40")
	vol, err := os.ReadFile(orig + ".0")
	if err != nil {
		t.Skipf("QA archive: %v", err)
	}
	base := copyArchive(t, "20180127.08.40", t.TempDir())
	cmd := exec.Command(xzProg, "-0", "-c", "--block-size=256KiB")
	cmd.Stdin = bytes.NewReader(vol)
	z, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".0.xz", z, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(base + ".0"); err != nil {
		t.Fatal(err)
	}
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	allocs := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	before := allocs()
	Check(base, io.Discard, Options{Loc: time.UTC, MetadataOnly: true})
	got := allocs() - before
	t.Logf("%d bytes allocated checking a volume of %d bytes", got, len(vol))
	if limit := uint64(len(vol)) / 2; got > limit {
		t.Errorf("checking allocated %d bytes, more than %d (half the volume's %d)", got, limit, len(vol))
	}
}
