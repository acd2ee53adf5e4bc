package archive

// FileBytes returns the content of one archive file as libpcp's readers
// see it: decompressed when the name (or, for a missing plain file, a
// sibling with a compression suffix) is compressed. Checkers such as
// pmlogcheck walk the raw records with it.
func FileBytes(path string) ([]byte, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.close()
	return append([]byte(nil), f.b...), nil
}

// SplitName strips an archive file's suffix (".meta", ".index" or a
// volume number, each perhaps followed by a compression suffix) as
// __pmLogBaseName does; ok is false for a name that is not an archive
// file's.
func SplitName(name string) (base, kind string, ok bool) { return baseName(name) }
