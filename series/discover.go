package series

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/archive"
)

// DiscoverOptions are the settings of archive discovery, pmproxy.conf's
// [discover] section.
type DiscoverOptions struct {
	// Dir is searched, subdirectories too, for archives (path, else
	// $PCP_ARCHIVE_DIR, as the caller resolves it).
	Dir string
	// Load holds the stream settings and exclusions.
	Load LoadOptions
	// Interval is the time between scans (1s when zero).
	Interval time.Duration
	// FromStart loads the archives the first scan finds from their
	// first record. Without it they are followed from their end, as PCP's
	// pmproxy follows them; archives that appear later are loaded whole.
	FromStart bool
	// MaxArchives bounds the archives followed at once (4096 when zero).
	MaxArchives int
	// Logf reports an archive that cannot be followed (nil: nothing).
	Logf func(format string, args ...any)
	// Tracef reports what discovery does (the first scan, an archive
	// followed or dropped; nil: nothing): PCP's pmproxy says such
	// things only when asked (-D discovery), so pmproxy gives it then.
	Tracef func(format string, args ...any)
}

// Discoverer follows the archives under a directory into Redis, as PCP's
// pmproxy does with [discover] enabled: an archive is found by its
// uncompressed .meta file, followed while it grows, and dropped when its
// files go (deleted, or compressed by pmlogger_daily). A "lock" file in
// an archive's directory holds its loading back, as PCP's does, while
// the directory's archives are being rewritten. Where PCP watches with
// inotify, ours scans: an archive whose files' sizes have not changed is
// not opened.
type Discoverer struct {
	opt      DiscoverOptions
	followed map[string]*followed
	scanned  bool
	full     bool // MaxArchives reached and said
}

type followed struct {
	f       *Follower
	sig     string // sizes of the files at the last poll
	lastErr string
	said    bool // lastErr logged
}

// NewDiscoverer prepares discovery under opt.Dir.
func NewDiscoverer(opt DiscoverOptions) *Discoverer {
	if opt.Interval <= 0 {
		opt.Interval = time.Second
	}
	if opt.MaxArchives <= 0 {
		opt.MaxArchives = 4096
	}
	return &Discoverer{opt: opt, followed: map[string]*followed{}}
}

// Run scans every Interval until ctx ends.
func (d *Discoverer) Run(ctx context.Context, c resp.Client) {
	t := time.NewTicker(d.opt.Interval)
	defer t.Stop()
	for {
		d.Scan(ctx, c)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Followed is the number of archives being followed.
func (d *Discoverer) Followed() int { return len(d.followed) }

func (d *Discoverer) logf(format string, args ...any) {
	if d.opt.Logf != nil {
		d.opt.Logf(format, args...)
	}
}

func (d *Discoverer) tracef(format string, args ...any) {
	if d.opt.Tracef != nil {
		d.opt.Tracef(format, args...)
	}
}

// Scan looks for archives once and loads what the followed ones gained.
// It returns the stats of the archives that changed.
func (d *Discoverer) Scan(ctx context.Context, c resp.Client) []LoadStats {
	found := d.find()
	first := !d.scanned
	d.scanned = true
	for base := range d.followed {
		if _, ok := found[base]; !ok {
			d.tracef("discover: %s: no longer followed (removed or compressed)", base)
			delete(d.followed, base)
		}
	}
	bases := make([]string, 0, len(found))
	for b := range found {
		bases = append(bases, b)
	}
	sort.Strings(bases)
	if first {
		how := "followed from their end"
		if d.opt.FromStart {
			how = "loaded from their start"
		}
		d.tracef("discover: first scan: %d archives under %s, %s; new ones from their start", len(found), d.opt.Dir, how)
	}
	var out []LoadStats
	for _, base := range bases {
		if ctx.Err() != nil {
			break
		}
		fw := d.followed[base]
		if fw == nil {
			if len(d.followed) >= d.opt.MaxArchives {
				if !d.full {
					d.logf("discover: following %d archives, no more: %s and others left alone", len(d.followed), base)
					d.full = true
				}
				continue
			}
			fw = &followed{f: NewFollower(base, base, d.opt.Load, first && !d.opt.FromStart)}
			d.followed[base] = fw
			d.tracef("discover: following %s", base)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(base), "lock")); err == nil {
			continue // pmlogger_daily is at work in the directory
		}
		sig := found[base]
		if sig == fw.sig {
			continue
		}
		st, err := fw.f.Poll(ctx, c)
		if err != nil {
			// a new archive without its first record yet, a metadata
			// record read while pmlogger wrote it, Redis down: tried
			// again at the next scan, and said when the same error comes
			// twice running (so not for a passing race), once
			e := err.Error()
			if e == fw.lastErr && !fw.said {
				d.logf("discover: %v", err)
				fw.said = true
			} else if e != fw.lastErr {
				fw.lastErr, fw.said = e, false
			}
			continue
		}
		fw.sig, fw.lastErr, fw.said = sig, "", false
		if fw.f.pending() {
			fw.sig = "" // a record waits for its metadata: look again
		}
		out = append(out, st)
	}
	return out
}

// find walks the directory for archives: the base name of each
// uncompressed .meta file, with the sizes of its files as a signature.
func (d *Discoverer) find() map[string]string {
	found := map[string]string{}
	sizes := map[string][]string{}
	files := 0
	seen := map[string]bool{} // directories walked, by real path: links may loop
	var walk func(dir string)
	walk = func(dir string) {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || seen[real] {
			return
		}
		seen[real] = true
		// the separator makes a link given as the root be followed
		root := dir + string(filepath.Separator)
		filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable directory is passed over
			}
			if e.IsDir() {
				if p != root {
					if real, err := filepath.EvalSymlinks(p); err == nil {
						seen[real] = true
					}
				}
				return nil
			}
			if files++; files > maxWalk {
				return filepath.SkipAll
			}
			if e.Type()&fs.ModeSymlink != 0 {
				// PCP's discovery stats what it finds: a link to a
				// directory is walked too
				if st, err := os.Stat(p); err == nil && st.IsDir() {
					walk(p)
					return nil
				}
			}
			base, kind, ok := archive.SplitName(p)
			if !ok {
				return nil
			}
			info, err := os.Stat(p)
			if err != nil {
				return nil
			}
			if kind == "meta" && strings.HasSuffix(p, ".meta") {
				found[base] = ""
			}
			sizes[base] = append(sizes[base], p[len(base):]+":"+strconv.FormatInt(info.Size(), 10))
			return nil
		})
	}
	walk(d.opt.Dir)
	for base := range found {
		s := sizes[base]
		sort.Strings(s)
		found[base] = strings.Join(s, " ")
	}
	return found
}

// maxWalk bounds the files one scan looks at.
const maxWalk = 1 << 20
