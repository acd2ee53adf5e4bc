package pmda

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
)

// The cache file, as libpcp_pmda writes it: a header line
//
//	VERSION REUSE MAXINST
//
// (version 2; version 1 files lack MAXINST), then one line per entry not
// culled, in instance order:
//
//	INST STAMP [HEXKEY] NAME
//
// STAMP being the time in seconds when a save last found the entry active
// and the bracketed key present only for entries added with a key.
const (
	cacheVersion1 = 1
	cacheVersion  = 2
)

// SetDir sets the directory the cache file lives in; the default is
// $PCP_VAR_DIR/config/pmda, as for PCP's agents.
func (c *Cache) SetDir(dir string) {
	c.mu.Lock()
	c.dir = dir
	c.mu.Unlock()
}

// Path is the cache file's path: the directory, then the instance domain
// as PCP prints it (DOMAIN.SERIAL).
func (c *Cache) Path() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.path()
}

func (c *Cache) path() string {
	dir := c.dir
	if dir == "" {
		v, _ := pcpconf.Get("PCP_VAR_DIR")
		if v == "" {
			v = "/var/lib/pcp"
		}
		dir = filepath.Join(v, "config", "pmda")
	}
	return filepath.Join(dir, c.indom.String())
}

// Load reads the cache file into the cache, its entries inactive until
// the agent adds them again, and returns how many lines it read. Entries
// already in the cache stay; a loaded entry whose number or name clashes
// with one of them is ignored. A missing file is an error wrapping
// fs.ErrNotExist; a malformed one is pcp.ErrGeneric with the bad line,
// the entries before it having been loaded, as PCP does.
func (c *Cache) Load() (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	path := c.path()
	f, err := os.Open(path)
	if err != nil {
		return 0, osError(c.indom, err)
	}
	defer f.Close()
	n, err := c.load(f)
	if err != nil {
		return n, fmt.Errorf("pmda: cache %v: %s: %w", c.indom, path, err)
	}
	return n, nil
}

// osError wraps a failed file operation with PCP's code for it, the
// negated errno, as libpcp_pmda returns it.
func osError(indom pcp.InDom, err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return fmt.Errorf("pmda: cache %v: %w (%w)", indom, err, pcp.Error(-int32(errno)))
	}
	return fmt.Errorf("pmda: cache %v: %w", indom, err)
}

// LoadFrom is Load reading from r instead of the cache file.
func (c *Cache) LoadFrom(r io.Reader) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.load(r)
}

// cacheRecord is one parsed entry line.
type cacheRecord struct {
	inst  int32
	stamp int64
	key   []byte
	name  string
}

// parseCacheHeader reads the header line: the file's numbering mode and
// highest instance number.
func parseCacheHeader(line string) (reuse bool, maxInst int32, err error) {
	f := strings.Fields(line)
	bad := fmt.Errorf("illegal cache header record: %q: %w", line, pcp.ErrGeneric)
	if len(f) < 1 {
		return false, 0, bad
	}
	v, err := strconv.Atoi(f[0])
	if err != nil || v <= 0 || v > cacheVersion {
		return false, 0, bad
	}
	want := 3
	if v == cacheVersion1 {
		want = 2
	}
	if len(f) < want {
		return false, 0, bad
	}
	mode, err := strconv.ParseInt(f[1], 10, 32)
	if err != nil || mode < 0 || mode > 1 {
		return false, 0, bad
	}
	maxInst = 0x7fffffff
	if want == 3 {
		m, err := strconv.ParseInt(f[2], 10, 32)
		if err != nil || m < 0 {
			return false, 0, bad
		}
		maxInst = int32(m)
	}
	return mode == 1, maxInst, nil
}

// parseCacheRecord reads one entry line.
func parseCacheRecord(line string) (cacheRecord, error) {
	var r cacheRecord
	bad := fmt.Errorf("illegal record: %q: %w", line, pcp.ErrGeneric)
	p := strings.TrimLeft(line, " \t\v\f\r")
	digits := func() (string, bool) {
		i := 0
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
		}
		d := p[:i]
		p = strings.TrimLeft(p[i:], " \t\v\f\r")
		return d, i > 0
	}
	d, ok := digits()
	inst, err := strconv.ParseInt(d, 10, 32)
	if !ok || err != nil || p == "" {
		return r, bad
	}
	r.inst = int32(inst)
	d, ok = digits()
	if ok {
		if r.stamp, err = strconv.ParseInt(d, 10, 64); err != nil {
			return r, bad
		}
	}
	if strings.HasPrefix(p, "[") {
		end := strings.IndexByte(p, ']')
		if end < 0 {
			return r, bad
		}
		hx := p[1:end]
		if r.key, err = hex.DecodeString(hx[:len(hx)/2*2]); err != nil {
			return r, bad
		}
		p = strings.TrimLeft(p[end+1:], " \t\v\f\r")
	}
	if p == "" {
		return r, bad
	}
	r.name = p
	return r, nil
}

func (c *Cache) load(r io.Reader) (int, error) {
	br := bufio.NewReader(r)
	header, err := readCacheLine(br)
	if err == io.EOF {
		return 0, nil // PCP accepts an empty file, logging it
	}
	if err != nil {
		return 0, err
	}
	reuse, maxInst, err := parseCacheHeader(header)
	if err != nil {
		return 0, err
	}
	c.reuse, c.maxInst = reuse, maxInst
	n := 0
	for ; ; n++ {
		line, err := readCacheLine(br)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		rec, err := parseCacheRecord(line)
		if err != nil {
			return n, err
		}
		e, err := c.insert(rec.name, rec.inst)
		if e == nil {
			return n, err
		}
		if err != nil {
			continue // clashes with an entry we have: ignored, as PCP does
		}
		e.key = rec.key
		e.stamp = rec.stamp
	}
}

// readCacheLine returns the next line without its newline; io.EOF at the
// end. A last line without a newline counts.
func readCacheLine(br *bufio.Reader) (string, error) {
	line, err := br.ReadString('\n')
	if err == io.EOF && line != "" {
		err = nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(line, "\n"), nil
}

// Save writes the cache file if entries were added or culled since the
// last save (PMDA_CACHE_SAVE), and returns how many entries it wrote (0
// when there was nothing to do). Entries active since the last save get
// the current time as their stamp. The directory is made if need be.
func (c *Cache) Save() (int, error) { return c.save(dirtyInstance) }

// Sync is Save that also writes when only stamps changed, an entry having
// been added again (PMDA_CACHE_SYNC).
func (c *Cache) Sync() (int, error) { return c.save(dirtyInstance | dirtyStamp) }

func (c *Cache) save(mask int) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dirty&mask == 0 {
		return 0, nil
	}
	path := c.path()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, osError(c.indom, err)
	}
	var buf bytes.Buffer
	n := c.write(&buf)
	// Written beside and renamed, so a reader never sees half a file.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return 0, osError(c.indom, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return 0, osError(c.indom, err)
	}
	c.dirty = 0
	return n, nil
}

// write renders the file, stamping entries that have no stamp yet.
func (c *Cache) write(w *bytes.Buffer) int {
	mode := 0
	if c.reuse {
		mode = 1
	}
	fmt.Fprintf(w, "%d %d %d\n", cacheVersion, mode, c.maxInst)
	now := c.now().Unix()
	n := 0
	for _, e := range c.entries {
		if e.state == CacheEmpty {
			continue
		}
		if e.stamp == 0 {
			e.stamp = now
		}
		fmt.Fprintf(w, "%d %d", e.inst, e.stamp)
		if len(e.key) > 0 {
			fmt.Fprintf(w, " [%x]", e.key)
		}
		fmt.Fprintf(w, " %s\n", e.name)
		n++
	}
	return n
}

// hashBytes is Bob Jenkins' lookup2 hash of k with initial value init, the
// hash libpcp_pmda numbers keyed instances with. Its bytes are signed chars
// in PCP's build, so bytes from 0x80 up are sign-extended as they are added.
func hashBytes(k []byte, init uint32) uint32 {
	b := func(i int) uint32 { return uint32(int32(int8(k[i]))) }
	a, bb, c := uint32(0x9e3779b9), uint32(0x9e3779b9), init
	length := uint32(len(k))
	for len(k) >= 12 {
		a += b(0) + b(1)<<8 + b(2)<<16 + b(3)<<24
		bb += b(4) + b(5)<<8 + b(6)<<16 + b(7)<<24
		c += b(8) + b(9)<<8 + b(10)<<16 + b(11)<<24
		a, bb, c = mix(a, bb, c)
		k = k[12:]
	}
	c += length
	switch len(k) {
	case 11:
		c += b(10) << 24
		fallthrough
	case 10:
		c += b(9) << 16
		fallthrough
	case 9:
		c += b(8) << 8
		fallthrough
	case 8:
		bb += b(7) << 24
		fallthrough
	case 7:
		bb += b(6) << 16
		fallthrough
	case 6:
		bb += b(5) << 8
		fallthrough
	case 5:
		bb += b(4)
		fallthrough
	case 4:
		a += b(3) << 24
		fallthrough
	case 3:
		a += b(2) << 16
		fallthrough
	case 2:
		a += b(1) << 8
		fallthrough
	case 1:
		a += b(0)
	}
	_, _, c = mix(a, bb, c)
	return c
}

func mix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= b
	a -= c
	a ^= c >> 13
	b -= c
	b -= a
	b ^= a << 8
	c -= a
	c -= b
	c ^= b >> 13
	a -= b
	a -= c
	a ^= c >> 12
	b -= c
	b -= a
	b ^= a << 16
	c -= a
	c -= b
	c ^= b >> 5
	a -= b
	a -= c
	a ^= c >> 3
	b -= c
	b -= a
	b ^= a << 10
	c -= a
	c -= b
	c ^= b >> 15
	return a, b, c
}
