package pmda

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// The help database newhelp builds and libpcp_pmda's pmdaOpenHelp reads is
// two files. NAME.pag holds the texts: the header "PcPh22\n", then per
// entry "\n@ NAME " followed by the one-line text and the help text, each
// ending in a NUL. NAME.dir is an index of 12-byte records in the host's
// byte order, {key, one-line offset, help offset}: first a header record
// {"PcPh" as 0x50635068, 0x31320000 (directory, version 2), number of
// entries}, then the entries sorted metrics first (by cluster and item),
// then instance domains (by serial). The key is the PMID, or the InDom
// with its top bit set.
const (
	helpMagic    = 0x50635068
	helpDirMagic = 0x31320000 // '1' (a directory), '2' (version 2)
	helpRecord   = 12
	helpPagHead  = "PcPh22\n"
)

// helpOrder is newhelp's index order: PMIDs before InDoms, each by the
// low 22 bits (cluster and item, or serial).
func helpOrder(a, b uint32) int {
	fa, fb := a>>31, b>>31
	if fa != fb {
		return int(fa) - int(fb)
	}
	return int(a&0x3fffff) - int(b&0x3fffff)
}

// WriteHelpDB writes entries as a help database: the .pag contents to pag
// and the .dir contents to dir, byte for byte as newhelp writes them.
func WriteHelpDB(pag, dir io.Writer, entries []HelpEntry) error {
	type rec struct{ key, one, text uint32 }
	var p bytes.Buffer
	p.WriteString(helpPagHead)
	idx := make([]rec, 0, len(entries))
	for i := range entries {
		e := &entries[i]
		fmt.Fprintf(&p, "\n@ %s ", e.Name)
		r := rec{key: e.key(), one: uint32(p.Len())}
		p.WriteString(e.OneLine)
		p.WriteByte(0)
		r.text = uint32(p.Len())
		p.WriteString(e.Text)
		p.WriteByte(0)
		idx = append(idx, r)
	}
	slices.SortStableFunc(idx, func(a, b rec) int { return helpOrder(a.key, b.key) })
	d := make([]byte, 0, helpRecord*(len(idx)+1))
	put := func(a, b, c uint32) {
		d = binary.NativeEndian.AppendUint32(d, a)
		d = binary.NativeEndian.AppendUint32(d, b)
		d = binary.NativeEndian.AppendUint32(d, c)
	}
	put(helpMagic, helpDirMagic, uint32(len(idx)))
	for _, r := range idx {
		put(r.key, r.one, r.text)
	}
	if _, err := pag.Write(p.Bytes()); err != nil {
		return err
	}
	_, err := dir.Write(d)
	return err
}

// CreateHelpDB writes entries to base.pag and base.dir.
func CreateHelpDB(base string, entries []HelpEntry) error {
	var pag, dir bytes.Buffer
	if err := WriteHelpDB(&pag, &dir, entries); err != nil {
		return err
	}
	if err := os.WriteFile(base+".pag", pag.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(base+".dir", dir.Bytes(), 0o644)
}

// helpText is one entry's two texts.
type helpText struct{ one, text string }

// Help is help text by PMID and instance domain, read from newhelp's
// source format or from a help database, for an agent's Text answers. A
// Help is read-only once built and safe for concurrent use.
type Help struct {
	pmids  map[pcp.PMID]helpText
	indoms map[pcp.InDom]helpText
}

// NewHelp indexes entries; of two entries for the same PMID or InDom the
// first counts.
func NewHelp(entries []HelpEntry) *Help {
	h := &Help{pmids: map[pcp.PMID]helpText{}, indoms: map[pcp.InDom]helpText{}}
	for _, e := range entries {
		t := helpText{e.OneLine, e.Text}
		if e.InDom {
			if _, dup := h.indoms[pcp.InDom(e.ID)]; !dup {
				h.indoms[pcp.InDom(e.ID)] = t
			}
		} else if _, dup := h.pmids[pcp.PMID(e.ID)]; !dup {
			h.pmids[pcp.PMID(e.ID)] = t
		}
	}
	return h
}

// LoadHelp reads a help text source file (newhelp's input).
func LoadHelp(path string, opts HelpOptions) (*Help, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("pmda: help: %w", err)
	}
	defer f.Close()
	if opts.File == "" {
		opts.File = path
	}
	entries, err := ParseHelp(f, opts)
	return NewHelp(entries), err
}

// OpenHelp reads the help database base.dir and base.pag, as
// pmdaOpenHelp does. A file that is not a version 2 help database is
// pcp.Error(-EINVAL); an index pointing outside the texts is too.
func OpenHelp(base string) (*Help, error) {
	dir, err := os.ReadFile(base + ".dir")
	if err != nil {
		return nil, fmt.Errorf("pmda: help: %w", err)
	}
	pag, err := os.ReadFile(base + ".pag")
	if err != nil {
		return nil, fmt.Errorf("pmda: help: %w", err)
	}
	h, err := ReadHelpDB(dir, pag)
	if err != nil {
		return nil, fmt.Errorf("pmda: help: %s: %w", base, err)
	}
	return h, nil
}

// ReadHelpDB decodes a help database from the contents of its .dir and
// .pag files. As libpcp_pmda looks them up, the first index entry for a
// PMID counts and the last for an instance domain.
func ReadHelpDB(dir, pag []byte) (*Help, error) {
	bad := func(why string) error { return fmt.Errorf("%s: %w", why, errInval) }
	if len(dir) < helpRecord {
		return nil, bad("short help index")
	}
	u := binary.NativeEndian.Uint32
	if u(dir) != helpMagic || u(dir[4:])&0xffff0000 != helpDirMagic {
		return nil, bad("not a version 2 help index")
	}
	n := u(dir[8:])
	if uint64(n) > uint64(len(dir)/helpRecord-1) {
		return nil, bad(fmt.Sprintf("help index claims %d entries in %d bytes", n, len(dir)))
	}
	str := func(off uint32) (string, bool) {
		if uint64(off) >= uint64(len(pag)) {
			return "", false
		}
		s := pag[off:]
		if i := bytes.IndexByte(s, 0); i >= 0 {
			s = s[:i]
		}
		return string(s), true
	}
	h := &Help{pmids: map[pcp.PMID]helpText{}, indoms: map[pcp.InDom]helpText{}}
	for i := uint32(1); i <= n; i++ {
		r := dir[i*helpRecord:]
		key := u(r)
		one, ok1 := str(u(r[4:]))
		text, ok2 := str(u(r[8:]))
		if !ok1 || !ok2 {
			return nil, bad(fmt.Sprintf("help index entry %d points outside the text file", i))
		}
		t := helpText{one, text}
		if key>>31 != 0 {
			h.indoms[pcp.InDom(key&^(1<<31))] = t // the last counts
		} else if _, dup := h.pmids[pcp.PMID(key)]; !dup {
			h.pmids[pcp.PMID(key)] = t
		}
	}
	return h, nil
}

// Text returns the one-line and full help of pmid.
func (h *Help) Text(pmid pcp.PMID) (oneLine, text string, ok bool) {
	t, ok := h.pmids[pmid]
	return t.one, t.text, ok
}

// InDomText returns the one-line and full help of indom.
func (h *Help) InDomText(indom pcp.InDom) (oneLine, text string, ok bool) {
	t, ok := h.indoms[indom]
	return t.one, t.text, ok
}

// Len is the number of texts.
func (h *Help) Len() int { return len(h.pmids) + len(h.indoms) }

// Apply gives the metrics and instance domains of an agent of domain the
// help texts h has for them, where their own OneLine or Help is empty.
// Call it on the tables before New; the tables' PMIDs and InDoms are
// matched with domain put into them, as New will.
func (h *Help) Apply(domain uint32, metrics []Metric, indoms []InDom) {
	for i := range metrics {
		m := &metrics[i]
		id := pcp.NewPMID(domain, m.Desc.PMID.Cluster(), m.Desc.PMID.Item())
		if t, ok := h.pmids[id]; ok {
			if m.OneLine == "" {
				m.OneLine = t.one
			}
			if m.Help == "" {
				m.Help = t.text
			}
		}
	}
	for i := range indoms {
		d := &indoms[i]
		id := pcp.NewInDom(domain, d.InDom.Serial())
		if t, ok := h.indoms[id]; ok {
			if d.OneLine == "" {
				d.OneLine = t.one
			}
			if d.Help == "" {
				d.Help = t.text
			}
		}
	}
}

// MetricLookup resolves the names of a metric table, for HelpOptions.Lookup
// when help text source names an agent's own metrics; domain is put into
// the PMIDs.
func MetricLookup(domain uint32, metrics []Metric) func(string) (pcp.PMID, error) {
	names := make(map[string]pcp.PMID, len(metrics))
	for _, m := range metrics {
		if m.Name != "" {
			names[m.Name] = pcp.NewPMID(domain, m.Desc.PMID.Cluster(), m.Desc.PMID.Item())
		}
	}
	return func(name string) (pcp.PMID, error) {
		if id, ok := names[name]; ok {
			return id, nil
		}
		return pcp.PMIDNull, pcp.ErrName
	}
}
