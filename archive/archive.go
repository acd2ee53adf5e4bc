package archive

import (
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/gopcp/gopcp/pcp"
)

// Archive is an open archive: its label, metadata and temporal index, and
// the names of its data volumes. Data volumes are read by Readers, each
// with its own position; the metadata may be read by any number of
// goroutines.
type Archive struct {
	// Base is the archive's base name: its files are Base.meta,
	// Base.index and Base.N (each perhaps compressed).
	Base string
	// Label is the label of the first data volume.
	Label Label
	// Index is the temporal index, empty when the archive has none.
	Index []IndexEntry
	// Meta is the metadata.
	Meta *Meta
	// MinVol and MaxVol bound the data volume numbers found.
	MinVol, MaxVol int

	metaFile string
	idxFile  string
	vols     map[int]bool // the volume numbers present

	windows windowPool // read windows of closed volumes, reused

	tempMu sync.Mutex
	temps  map[int]tempVolume
	xzs    map[int]*xzVolume
	mu     sync.Mutex
	end    pcp.Timestamp
	endErr error
	endSet bool
	// endSawLast: End opened the last volume with a good label, which
	// libpcp's look marks as seen (a label that fails its check is not)
	endSawLast bool
}

// Options change how Open checks an archive.
type Options struct {
	// NoFeatureCheck accepts labels with feature bits PCP 6.0.3 does not
	// know (PM_CTXFLAG_NO_FEATURE_CHECK).
	NoFeatureCheck bool
	// MetaLength, when positive and shorter than the metadata file,
	// reads only its first MetaLength bytes: a reader following an
	// archive pmlogger is writing stops where the last complete record
	// ends, leaving one still being written for later.
	MetaLength int64
	// Meta, when not nil, is the metadata already loaded from the same
	// file (by an earlier Open with the same MetaLength): it is used
	// instead of reading the records again, the label still checked.
	Meta *Meta
}

// Open opens the archive that name is the base name of, or one of the
// files of (as libpcp accepts either), with libpcp's checks and errors:
// no such files is ENOENT, some files but no metadata or no data volume
// is pcp.ErrLogFile, a bad label pcp.ErrLabel, an empty first volume
// pcp.ErrNoData, unknown features pcp.ErrFeature, damaged metadata
// pcp.ErrLogRec (and the others __pmLogLoadMeta gives).
func Open(name string, opt Options) (*Archive, error) {
	a, err := find(name)
	if err != nil {
		return nil, err
	}
	l, err := a.volumeLabel(a.MinVol, !opt.NoFeatureCheck)
	if err != nil {
		return nil, err
	}
	a.Label = l
	version := a.Label.Version()

	var idx *fileData
	if a.indexPath() != "" {
		f, err := openFile(a.indexPath())
		if err != nil {
			return nil, err
		}
		l, err := checkLabel(f.b, VolIndex, !opt.NoFeatureCheck)
		if err != nil {
			return nil, withFile(err, a.indexPath())
		}
		if l.Version() != version || l.PID != a.Label.PID || l.Hostname != a.Label.Hostname {
			return nil, &Error{File: a.indexPath(), Code: pcp.ErrLabel, Msg: "index label does not match the data volume's"}
		}
		idx = f
	}

	ms, head, size, done, err := openMeta(a.metaFile)
	if err != nil {
		return nil, err
	}
	defer done()
	if opt.MetaLength > 0 && opt.MetaLength < int64(size) {
		size = int(opt.MetaLength)
		head = head[:min(len(head), size)]
		ms.limit(size)
	}
	ml, err := checkLabelSized(head, size, VolMeta, !opt.NoFeatureCheck)
	if err != nil {
		return nil, withFile(err, a.metaFile)
	}
	if ml.Version() != version {
		return nil, &Error{File: a.metaFile, Code: pcp.ErrLabel, Msg: "metadata label version differs from the data volume's"}
	}
	if opt.Meta != nil {
		a.Meta = opt.Meta
	} else if a.Meta, err = loadMetaFrom(ms, version); err != nil {
		return nil, withFile(err, a.metaFile)
	}
	ms.handOn(&a.windows)
	if idx != nil {
		a.Index = decodeIndex(idx.b, version)
	}
	if ml.PID != a.Label.PID || ml.Hostname != a.Label.Hostname {
		return nil, &Error{File: a.metaFile, Code: pcp.ErrLabel, Msg: "metadata label does not match the data volume's"}
	}
	return a, nil
}

// indexPath is the index file found, "" when there is none.
func (a *Archive) indexPath() string { return a.idxFile }

// Version is the archive's format version.
func (a *Archive) Version() int { return a.Label.Version() }

// VolumePath is the name of data volume vol (without any compression
// suffix, which reading adds when needed).
func (a *Archive) VolumePath(vol int) string { return a.Base + "." + itoa(vol) }

// MetaPath is the metadata file's name as found.
func (a *Archive) MetaPath() string { return a.metaFile }

// maxArchiveFiles bounds the files of one archive's name that find
// takes from its directory (a volume each, at most, beside the metadata
// and index): libpcp has no bound, and a directory of more is refused
// (EFBIG) rather than read into memory without end.
const maxArchiveFiles = 1 << 20

// find locates an archive's files as __pmLogFindOpen does.
func find(name string) (*Archive, error) {
	dir, base := filepath.Dir(name), filepath.Base(name)
	// A name with an archive file's suffix is that file's archive when
	// the file exists; a base name is asked of the file system only
	// through the directory (eight stats for every open before).
	if b, _, ok := baseName(base); ok && fileExists(name) {
		base = b
	}
	a := &Archive{Base: dir + string(filepath.Separator) + base, MinVol: -1, MaxVol: -1, vols: map[int]bool{}}
	// Names alone, and only this archive's sorted: a directory such as
	// PCP's QA archives holds hundreds of files, and os.ReadDir's entries
	// and sort cost more than the rest of opening a small archive.
	names, err := archiveNames(dir, base)
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	found := false
	for _, n := range names {
		b, kind, ok := baseName(n)
		if !ok || b != base {
			continue
		}
		full := filepath.Join(dir, n)
		plain := !compressedSuffix(filepath.Ext(n))
		switch kind {
		case "index":
			found = true
			if a.idxFile == "" || plain {
				a.idxFile = full
			}
		case "meta":
			found = true
			if a.metaFile == "" || plain {
				a.metaFile = full
			}
		default:
			vol, ok := volumeNumber(kind)
			if !ok {
				continue
			}
			found = true
			a.vols[vol] = true
			if a.MinVol < 0 || vol < a.MinVol {
				a.MinVol = vol
			}
			if vol > a.MaxVol {
				a.MaxVol = vol
			}
		}
	}
	if a.MinVol < 0 || a.metaFile == "" {
		if found {
			return nil, &Error{File: name, Code: pcp.ErrLogFile, Msg: "no metadata or no data volume"}
		}
		return nil, &os.PathError{Op: "open", Path: name, Err: os.ErrNotExist}
	}
	return a, nil
}

// fileExists reports whether name, or a compressed copy of it, exists.
func fileExists(name string) bool {
	if _, err := os.Stat(name); err == nil {
		return true
	}
	for _, c := range compressed {
		if _, err := os.Stat(name + c); err == nil {
			return true
		}
	}
	return false
}

// checkLabel is __pmLogChkLabel on a file's content.
func checkLabel(b []byte, vol int, features bool) (Label, error) {
	return checkLabelSized(b, len(b), vol, features)
}

// checkLabelSized is checkLabel on the start of a file of the given size.
func checkLabelSized(b []byte, size int, vol int, features bool) (Label, error) {
	if size == 0 {
		b = nil
	}
	l, err := DecodeLabel(b)
	if err != nil {
		return l, err
	}
	if l.Magic&0xffffff00 != Magic {
		return l, &Error{Code: pcp.ErrLabel, Msg: "bad magic"}
	}
	if int(l.Vol) != vol {
		return l, &Error{Code: pcp.ErrLabel, Msg: "label is for volume " + itoa(int(l.Vol))}
	}
	if features && l.Features&^KnownFeatures != 0 {
		return l, &Error{Code: pcp.ErrFeature, Msg: "unknown feature bits"}
	}
	if size == labelSize(l.Version()) {
		return l, &Error{Code: pcp.ErrNoData, Msg: "no records after the label"}
	}
	return l, nil
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(b[i:])
}
