//go:build !linux

package archive

// archiveNames lists the entries of dir whose names start with base, in
// the directory's order (names_linux.go reads them without a string for
// every entry).
func archiveNames(dir, base string) ([]string, error) { return readdirNames(dir, base) }
