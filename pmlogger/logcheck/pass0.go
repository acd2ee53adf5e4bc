package logcheck

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

const (
	isIndex = iota + 1
	isMeta
	isLog
)

// metaTypeStr names metadata record types as __pmLogMetaTypeStr does.
func metaTypeStr(t uint32) string {
	switch t {
	case archive.TypeDesc:
		return "DESC"
	case archive.TypeInDomV2:
		return "INDOM_V2"
	case archive.TypeLabelV2:
		return "LABEL_V2"
	case archive.TypeText:
		return "TEXT"
	case archive.TypeInDom:
		return "INDOM"
	case archive.TypeInDomDelta:
		return "INDOM_DELTA"
	case archive.TypeLabel:
		return "LABEL"
	}
	return "UNKNOWN"
}

// pass0 walks one file's records by their length words.
func (c *checker) pass0(path string) int {
	w := c.w
	kind := 0
	if _, k, ok := archive.SplitName(path); ok {
		switch {
		case k == "index":
			kind = isIndex
		case k == "meta":
			kind = isMeta
		case k != "" && k[0] >= '0' && k[0] <= '9':
			kind = isLog
		}
	}
	sts, labelOK := statusOK, statusOK
	nrec := 0
	offset := int64(0)
	eol := true
	newline := func() {
		if c.opt.Verbose > 0 && !eol {
			fmt.Fprintln(w)
			eol = true
		}
	}
	content, err := archive.OpenContent(path)
	if err != nil {
		fmt.Fprintf(w, "%s: cannot open file: %s\n", path, osText(err))
		sts = statusFatal
		// pmlogcheck learns the file's kind only once it is open, so a
		// file that does not open counts as a data volume (and a
		// metadata file that does not open is then missing)
		return c.pass0Done(0, sts, labelOK, nrec, 0, path)
	}
	defer content.Close()
	if c.opt.Verbose > 0 {
		fmt.Fprintf(w, "%s: start pass0 ... ", path)
		eol = false
	}
	// The records are read as they come, as pmlogcheck reads them, not
	// the file held whole: a volume may be hundreds of megabytes.
	// Only the label record and a metadata record's type are kept.
	r := recordReader{r: bufio.NewReaderSize(content, 64<<10)}
	fatal := func(format string, args ...any) int {
		newline()
		fmt.Fprintf(w, format, args...)
		return statusFatal
	}
	var word [4]byte
	var label []byte
	for {
		if got := r.read(word[:]); got < 4 {
			if got != 0 {
				sts = fatal("%s[record %d]: unexpected EOF in record header, wanted %d, got %d bytes\n", path, nrec, 4, got)
			}
			break
		}
		hlen := int32(binary.BigEndian.Uint32(word[:]))
		// pmlogcheck compares lengths as unsigned: a negative one
		// passes here and fails against its trailer.
		if uint32(hlen) < 8 {
			if nrec == 0 {
				sts = fatal("%s: illegal header record length (%d) in label record\n", path, hlen)
			} else {
				sts = fatal("%s[record %d]: illegal header record length (%d)\n", path, nrec, hlen)
			}
			break
		}
		body := int64(max(int(hlen)-8, 0))
		keep := int64(0)
		switch {
		case nrec == 0:
			// all of a label; of a record too long to be one, its
			// length and magic words are all checkLabel reads
			keep = body
			if body > maxLabelRecord {
				keep = 4
			}
			label = append(append(label[:0], word[:]...), make([]byte, keep)...)
		case kind == isMeta:
			keep = min(body, 4)
		}
		var head [4]byte
		got := int64(0)
		if nrec == 0 {
			got = int64(r.read(label[4:]))
			label = label[:4+got]
		} else {
			got = int64(r.read(head[:keep]))
		}
		if got == keep {
			got += r.skip(body - keep)
		}
		if got < body {
			if nrec == 0 {
				sts = fatal("%s: unexpected EOF in label record body, wanted %d, got %d bytes\n", path, body, got)
			} else {
				sts = fatal("%s[record %d]: unexpected EOF in record body, wanted %d, got %d bytes\n", path, nrec, body, got)
			}
			break
		}
		var typ uint32
		if nrec > 0 {
			for _, b := range head[:keep] {
				typ = typ<<8 | uint32(b)
			}
		}
		if got := r.read(word[:]); got < 4 {
			if nrec == 0 {
				sts = fatal("%s: unexpected EOF in label record trailer, wanted %d, got %d bytes\n", path, 4, got)
			} else {
				sts = fatal("%s[record %d]: unexpected EOF in record trailer, wanted %d, got %d bytes\n", path, nrec, 4, got)
			}
			break
		}
		check := int32(binary.BigEndian.Uint32(word[:]))
		if uint32(check) < 8 {
			if nrec == 0 {
				sts = fatal("%s: illegal trailer record length (%d) in label record\n", path, check)
			} else {
				sts = fatal("%s[record %d]: illegal trailer record length (%d)\n", path, nrec, check)
			}
			break
		}
		if check != hlen {
			if nrec == 0 {
				sts = fatal("%s: label record length mismatch: header %d != trailer %d\n", path, hlen, check)
			} else {
				sts = fatal("%s[record %d]: length mismatch: header %d != trailer %d\n", path, nrec, hlen, check)
			}
			break
		}
		if nrec == 0 {
			if keep == body {
				label = append(label, word[:]...)
			}
			if x := c.checkLabel(label, path); labelOK == statusOK {
				labelOK = x
			}
		}
		if kind == isIndex {
			size := int64(20)
			if c.golden&0xff >= archive.Version3 {
				size = 32
			}
			rest := r.skip(math.MaxInt64)
			nrec += 1 + int(rest/size)
			if got := rest % size; got != 0 {
				newline()
				fmt.Fprintf(w, "%s[record %d]: unexpected EOF in index entry, wanted %d, got %d bytes\n", path, nrec, size, got)
				c.index = stateBad
				sts = statusFatal
				return c.pass0Done(kind, sts, labelOK, nrec, offset, path)
			}
			break
		}
		// A record type wrong for the version is reported, but as in
		// pmlogcheck the walk goes on and the file still counts as good.
		if kind == isMeta && nrec > 0 {
			v := c.golden & 0xff
			switch typ {
			case archive.TypeInDom, archive.TypeInDomDelta, archive.TypeLabel:
				if v == archive.Version2 {
					fatal("%s[record %d]: unexpected record type %s (%d) for V2 archive\n", path, nrec, metaTypeStr(typ), typ)
				}
			case archive.TypeInDomV2, archive.TypeLabelV2:
				if v == archive.Version3 {
					fatal("%s[record %d]: unexpected record type %s (%d) for V3 archive\n", path, nrec, metaTypeStr(typ), typ)
				}
			}
		}
		nrec++
		offset = r.pos
	}
	if sts != statusFatal && nrec < 2 {
		newline()
		fmt.Fprintf(w, "%s: contains no PCP data\n", path)
		sts = statusWarning
	}
	return c.pass0Done(kind, sts, labelOK, nrec, offset, path)
}

func (c *checker) pass0Done(kind, sts, labelOK, nrec int, offset int64, path string) int {
	if sts == statusFatal && offset > 0 {
		fmt.Fprintf(c.w, "%s: last valid record ends at offset %d\n", path, offset)
	}
	switch kind {
	case isIndex:
		if sts == statusOK {
			c.index = stateOK
		} else {
			c.index = stateBad
		}
	case isMeta:
		if sts == statusOK {
			c.meta = stateOK
		} else {
			c.meta = stateBad
		}
	default:
		if c.log == stateOK && sts != statusOK {
			c.log = stateBad
		} else if c.log == stateMissing {
			if sts == statusOK {
				c.log = stateOK
			} else {
				c.log = stateBad
			}
		}
	}
	if sts == statusOK {
		sts = labelOK
	}
	if c.opt.Verbose > 0 && nrec > 0 && sts != statusFatal {
		fmt.Fprintf(c.w, "found %d records\n", nrec)
	}
	return sts
}

// checkLabel checks the label record at the start of b. As in
// pmlogcheck, a bad magic number or version is reported but only a label
// that does not load makes the file fatal.
func (c *checker) checkLabel(b []byte, path string) int {
	magic := binary.BigEndian.Uint32(b[4:])
	if magic&0xffffff00 != archive.Magic {
		fmt.Fprintf(c.w, "%s: bad label magic number: 0x%x not 0x%x as expected\n", path, magic&0xffffff00, archive.Magic)
	}
	if v := magic & 0xff; v != archive.Version2 && v != archive.Version3 {
		fmt.Fprintf(c.w, "%s: bad label version: %d not %d or %d as expected\n", path, v, archive.Version2, archive.Version3)
	}
	l, err := archive.DecodeLabel(b)
	if err != nil {
		fmt.Fprintf(c.w, "%s: cannot load label record: %s\n", path, pcp.Error(archive.Code(err)).Error())
		return statusFatal
	}
	if c.golden == 0 {
		c.goldenF, c.golden, c.start = path, magic, l.Start
	} else if magic&0xff != c.golden&0xff {
		fmt.Fprintf(c.w, "%s: mismatched label version: %d not %d as expected from %s\n", path, magic&0xff, magic&0xff, c.goldenF)
		return statusFatal
	}
	return statusOK
}

// osText is strerror's text for the errno a failed open leaves:
// pmlogcheck prints errno, so a PCP code libpcp's decompression sets
// there (PM_ERR_LOGREC for a damaged .xz file) comes out as glibc's
// text for an unknown errno.
func osText(err error) string {
	code := pcp.CodeOf(err, 0)
	switch {
	case code <= pcp.ErrGeneric:
		return fmt.Sprintf("Unknown error %d", -int32(code))
	case code < 0:
		return code.Error()
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "No such file or directory"
	}
	return err.Error()
}

// maxLabelRecord bounds the label record pass 0 keeps: the labels of
// both versions are far smaller.
const maxLabelRecord = 4 << 10

// recordReader reads a file's records in order, counting the bytes.
type recordReader struct {
	r   *bufio.Reader
	pos int64
}

// read fills b as far as the file goes and returns how much it read.
func (r *recordReader) read(b []byte) int {
	n, _ := io.ReadFull(r.r, b)
	r.pos += int64(n)
	return n
}

// skip passes over n bytes, or to the end of the file, and returns how
// many it passed.
func (r *recordReader) skip(n int64) int64 {
	got := int64(0)
	for got < n {
		k, err := r.r.Discard(int(min(n-got, 1<<30)))
		got += int64(k)
		if err != nil {
			break
		}
	}
	r.pos += got
	return got
}
