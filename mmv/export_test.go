package mmv

import "os"

// ReaderView is what a reader of the file at path sees, for the examples:
// each value as "name[instance] = value", by name.
func ReaderView(path, prefix string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	d, err := decodeFile(b)
	if err != nil {
		return "", err
	}
	return d.print(prefix), nil
}
