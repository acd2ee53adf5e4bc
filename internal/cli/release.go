package cli

import (
	"os"
	"path/filepath"
	"strings"
)

// longReplayBytes is the size of an archive's metadata and first data
// volume from which LongReplay says yes. startpages.Release lowers a
// replay's peak RSS by 0.7-1 MB, but it costs 40-55 page faults (reading
// /proc/self/pagemap, then mapping again the pages the run still needs),
// 2-3 ms of CPU where a fault is slow (a PVM guest): more than the whole
// replay of an archive of a few hundred KB, such as bench/startup.sh's
// (docs/bench.md, "Start-up: startpages.Release only for long replays").
// The archives TestReplayMemorySideBySide reads are 5 MB and more.
const longReplayBytes = 1 << 20

// LongReplay reports whether opening archive name is worth
// startpages.Release around it: whether the archive, named by its base
// name or one of its files, has uncompressed metadata and volume 0 of
// longReplayBytes or more. Anything it cannot size that way (a list, a
// directory, compressed files, a first volume other than 0, no such
// files) is taken as long, as every archive was before.
func LongReplay(name string) bool {
	base := name
	if ext := filepath.Ext(name); ext == ".meta" || ext == ".index" || digits(ext[min(1, len(ext)):]) {
		base = strings.TrimSuffix(name, ext)
	}
	var size int64
	for _, f := range [...]string{base + ".meta", base + ".0"} {
		st, err := os.Stat(f)
		if err != nil || !st.Mode().IsRegular() {
			return true
		}
		size += st.Size()
	}
	return size >= longReplayBytes
}

// digits reports whether s is a non-empty run of decimal digits.
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
