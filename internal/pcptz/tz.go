// Package pcptz turns a time zone as PCP names it (an archive label's
// POSIX TZ string such as "EST-10" or "AEST-10AEDT,M10.1.0,M4.1.0/3", a
// zoneinfo name, ":Zone/Name", or $TZ) into a *time.Location that gives
// the local times glibc's localtime gives under that TZ, so that tools
// print times as PCP's do.
//
// glibc tries a TZ value as a zoneinfo file first and then as a POSIX rule;
// Go's time package reads zoneinfo files but not POSIX rules, so a rule is
// wrapped in a minimal TZif file whose footer carries it, and Go's own
// reading of footers applies the rule. Locations are cached; the package
// is safe for concurrent use.
package pcptz

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

var cache sync.Map // string -> *time.Location

// Load returns the location for TZ value tz as glibc reads it: a leading
// ':' is dropped, a zoneinfo file of that name (or path) is used when
// there is one, otherwise tz is a POSIX rule; a rule that does not parse
// is UTC, as in glibc. pmNewZone's fix-up is applied first: a three
// letter zone gets "+0" appended.
func Load(tz string) *time.Location {
	if len(tz) == 3 {
		tz += "+0"
	}
	return load(tz)
}

func load(tz string) *time.Location {
	if l, ok := cache.Load(tz); ok {
		return l.(*time.Location)
	}
	l := resolve(tz)
	cache.Store(tz, l)
	return l
}

func resolve(tz string) *time.Location {
	name := strings.TrimPrefix(tz, ":")
	if name == "" {
		return time.UTC
	}
	if strings.HasPrefix(name, "/") {
		if b, err := readZoneFile(name); err == nil {
			if l, err := time.LoadLocationFromTZData(tz, b); err == nil {
				return l
			}
		}
	} else if !strings.Contains(name, "..") {
		if l, err := time.LoadLocation(name); err == nil {
			return l
		}
	}
	if tz[0] == ':' {
		return time.UTC
	}
	return posix(tz)
}

// maxZoneFile bounds what a TZ naming a file may make us read: the
// largest zone files are a few kilobytes, and Go's own zoneinfo reader
// refuses files over the same 10 MB, so a TZ of /dev/zero or a huge file
// falls back as an unreadable zone instead of filling memory.
const maxZoneFile = 10 << 20

func readZoneFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Every zone file starts with TZif's magic; looking at it first, as
	// glibc's reader does, turns away other files before reading them.
	var magic [4]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil || string(magic[:]) != "TZif" {
		return nil, errZoneFile
	}
	b, err := io.ReadAll(io.LimitReader(f, maxZoneFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxZoneFile {
		return nil, errZoneFile
	}
	return append(magic[:], b...), nil
}

var errZoneFile = errors.New("pcptz: not a readable zone file")

// Local is the zone localtime uses given $TZ as the caller read it
// (os.LookupEnv("TZ")): the value when set (empty meaning UTC), else the
// system's.
func Local(tz string, set bool) *time.Location {
	if !set {
		return time.Local
	}
	return load(tz)
}

// posix builds a location from a POSIX TZ rule. The TZif data has one
// zone (UTC, the fallback for a rule Go cannot read) in force from one
// transition at the beginning of time, after which the footer's rule
// applies to every instant.
func posix(rule string) *time.Location {
	if b, ok := defaultRules(rule); ok {
		if l, err := time.LoadLocationFromTZData(rule, b); err == nil {
			return l
		}
	}
	var b []byte
	header := func(timecnt, typecnt, charcnt uint32, version byte) {
		b = append(b, "TZif"...)
		b = append(b, version)
		b = append(b, make([]byte, 15)...)
		for _, n := range []uint32{0, 0, 0, timecnt, typecnt, charcnt} {
			b = binary.BigEndian.AppendUint32(b, n)
		}
	}
	// Version 1 block: no transitions, one zone.
	header(0, 1, 4, '2')
	b = append(b, 0, 0, 0, 0, 0, 0) // utoff 0, isdst 0, abbr 0
	b = append(b, "UTC\x00"...)
	// Version 2 block: one transition at the start of time.
	header(1, 1, 4, '2')
	b = binary.BigEndian.AppendUint64(b, uint64(minTime))
	b = append(b, 0)
	b = append(b, 0, 0, 0, 0, 0, 0)
	b = append(b, "UTC\x00"...)
	b = append(b, '\n')
	b = append(b, rule...)
	b = append(b, '\n')
	l, err := time.LoadLocationFromTZData(rule, b)
	if err != nil {
		return time.FixedZone(rule, 0)
	}
	return l
}

var minTime int64 = -1 << 59
