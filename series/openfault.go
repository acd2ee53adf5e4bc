package series

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// OpenFault is libpcp_web's refusal of an archive it cannot open,
// "cannot open archive "<path>": <pmErrStr>", or "" when it opens. A
// path that is no file at all (empty, a directory) is libpcp's missing
// archive, one that names no archive's files ENOENT.
func OpenFault(path string) string {
	a, err := archive.Open(path, archive.Options{})
	if err == nil {
		a.Close()
		return ""
	}
	var text string
	if st, serr := os.Stat(path); path == "" || serr == nil && st.IsDir() {
		text = pcp.ErrLogFile.Error()
	} else if errors.Is(err, fs.ErrNotExist) {
		text = "No such file or directory"
	} else {
		text = archive.Code(err).Error()
	}
	return fmt.Sprintf("cannot open archive \"%s\": %s", path, text)
}
