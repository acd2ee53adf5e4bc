package logcheck

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"

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
	offset := 0
	eol := true
	newline := func() {
		if c.opt.Verbose > 0 && !eol {
			fmt.Fprintln(w)
			eol = true
		}
	}
	b, err := archive.FileBytes(path)
	if err != nil {
		fmt.Fprintf(w, "%s: cannot open file: %s\n", path, osText(err))
		sts = statusFatal
		// pmlogcheck learns the file's kind only once it is open, so a
		// file that does not open counts as a data volume (and a
		// metadata file that does not open is then missing)
		return c.pass0Done(0, sts, labelOK, nrec, 0, path)
	}
	if c.opt.Verbose > 0 {
		fmt.Fprintf(w, "%s: start pass0 ... ", path)
		eol = false
	}
	pos := 0
	fatal := func(format string, args ...any) int {
		newline()
		fmt.Fprintf(w, format, args...)
		return statusFatal
	}
	for {
		if len(b)-pos < 4 {
			if got := len(b) - pos; got != 0 {
				sts = fatal("%s[record %d]: unexpected EOF in record header, wanted %d, got %d bytes\n", path, nrec, 4, got)
			}
			break
		}
		hlen := int32(binary.BigEndian.Uint32(b[pos:]))
		pos += 4
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
		body := max(int(hlen)-8, 0)
		if len(b)-pos < body {
			got := len(b) - pos
			if nrec == 0 {
				sts = fatal("%s: unexpected EOF in label record body, wanted %d, got %d bytes\n", path, body, got)
			} else {
				sts = fatal("%s[record %d]: unexpected EOF in record body, wanted %d, got %d bytes\n", path, nrec, body, got)
			}
			break
		}
		var typ uint32
		if kind == isMeta && nrec > 0 {
			for i := 0; i < 4 && i < body; i++ {
				typ = typ<<8 | uint32(b[pos+i])
			}
		}
		pos += body
		if len(b)-pos < 4 {
			got := len(b) - pos
			if nrec == 0 {
				sts = fatal("%s: unexpected EOF in label record trailer, wanted %d, got %d bytes\n", path, 4, got)
			} else {
				sts = fatal("%s[record %d]: unexpected EOF in record trailer, wanted %d, got %d bytes\n", path, nrec, 4, got)
			}
			break
		}
		check := int32(binary.BigEndian.Uint32(b[pos:]))
		pos += 4
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
			if x := c.checkLabel(b[:pos], path); labelOK == statusOK {
				labelOK = x
			}
		}
		if kind == isIndex {
			size := 20
			if c.golden&0xff >= archive.Version3 {
				size = 32
			}
			nrec++
			for len(b)-pos >= size {
				pos += size
				nrec++
			}
			if got := len(b) - pos; got != 0 {
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
		offset = pos
	}
	if sts != statusFatal && nrec < 2 {
		newline()
		fmt.Fprintf(w, "%s: contains no PCP data\n", path)
		sts = statusWarning
	}
	return c.pass0Done(kind, sts, labelOK, nrec, offset, path)
}

func (c *checker) pass0Done(kind, sts, labelOK, nrec, offset int, path string) int {
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
