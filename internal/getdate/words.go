package getdate

import (
	"strings"
	"sync"
)

// maxWord is how much of a word is looked up; the rest is read and
// ignored.
const maxWord = 19

type entry struct {
	kind kind
	val  int64
}

// names are month and weekday names. A three letter word (or three
// letters and a dot) matches the first name it begins; longer words must
// be whole names or one of the listed short forms.
var names = []struct {
	name string
	entry
}{
	{"january", entry{kMonth, 1}}, {"february", entry{kMonth, 2}}, {"march", entry{kMonth, 3}},
	{"april", entry{kMonth, 4}}, {"may", entry{kMonth, 5}}, {"june", entry{kMonth, 6}},
	{"july", entry{kMonth, 7}}, {"august", entry{kMonth, 8}}, {"september", entry{kMonth, 9}},
	{"sept", entry{kMonth, 9}}, {"october", entry{kMonth, 10}}, {"november", entry{kMonth, 11}},
	{"december", entry{kMonth, 12}},
	{"sunday", entry{kWeekday, 0}}, {"monday", entry{kWeekday, 1}}, {"tuesday", entry{kWeekday, 2}},
	{"tues", entry{kWeekday, 2}}, {"wednesday", entry{kWeekday, 3}}, {"wednes", entry{kWeekday, 3}},
	{"thursday", entry{kWeekday, 4}}, {"thur", entry{kWeekday, 4}}, {"thurs", entry{kWeekday, 4}},
	{"friday", entry{kWeekday, 5}}, {"saturday", entry{kWeekday, 6}},
}

// hours west of UTC, in minutes.
func west(h int64) int64 { return h * 60 }

// The word tables are made at first use: most tool runs parse no date,
// and package init would cost each of them.

// onceMap is a word table built at its first use. Its zero value is
// ready, so a package variable of this type costs nothing at start-up,
// where one holding sync.OnceValue's function would be built by the
// package's initialisation.
type onceMap struct {
	once sync.Once
	m    map[string]entry
}

func (o *onceMap) get(build func() map[string]entry) map[string]entry {
	o.once.Do(func() { o.m = build() })
	return o.m
}

// zones are the zone abbreviations the grammar knows, with their offsets
// west of UTC; the summer-time ones are kDayZone, given with their
// standard offset.
var zonesTable onceMap

func zones() map[string]entry {
	return zonesTable.get(func() map[string]entry {
		return map[string]entry{
			"gmt": {kZone, west(0)}, "ut": {kZone, west(0)}, "utc": {kZone, west(0)}, "wet": {kZone, west(0)},
			"bst": {kDayZone, west(0)}, "wat": {kZone, west(1)}, "at": {kZone, west(2)},
			"ast": {kZone, west(4)}, "adt": {kDayZone, west(4)},
			"est": {kZone, west(5)}, "edt": {kDayZone, west(5)},
			"cst": {kZone, west(6)}, "cdt": {kDayZone, west(6)},
			"mst": {kZone, west(7)}, "mdt": {kDayZone, west(7)},
			"pst": {kZone, west(8)}, "pdt": {kDayZone, west(8)},
			"yst": {kZone, west(9)}, "ydt": {kDayZone, west(9)},
			"hst": {kZone, west(10)}, "hdt": {kDayZone, west(10)}, "cat": {kZone, west(10)}, "ahst": {kZone, west(10)},
			"nt": {kZone, west(11)}, "idlw": {kZone, west(12)},
			"cet": {kZone, west(-1)}, "met": {kZone, west(-1)}, "mewt": {kZone, west(-1)}, "mest": {kDayZone, west(-1)},
			"swt": {kZone, west(-1)}, "sst": {kDayZone, west(-1)}, "fwt": {kZone, west(-1)}, "fst": {kDayZone, west(-1)},
			"eet": {kZone, west(-2)}, "bt": {kZone, west(-3)},
			"zp4": {kZone, west(-4)}, "zp5": {kZone, west(-5)}, "zp6": {kZone, west(-6)},
			"wast": {kZone, west(-7)}, "wadt": {kDayZone, west(-7)},
			"cct": {kZone, west(-8)}, "jst": {kZone, west(-9)},
			"east": {kZone, west(-10)}, "eadt": {kDayZone, west(-10)}, "gst": {kZone, west(-10)},
			"nzt": {kZone, west(-12)}, "nzst": {kZone, west(-12)}, "nzdt": {kDayZone, west(-12)}, "idle": {kZone, west(-12)},
		}
	})
}

// units are the words of relative times.
var unitsTable onceMap

func units() map[string]entry {
	return unitsTable.get(func() map[string]entry {
		return map[string]entry{
			"year": {kMonths, 12}, "month": {kMonths, 1},
			"fortnight": {kMinutes, 14 * 24 * 60}, "week": {kMinutes, 7 * 24 * 60}, "day": {kMinutes, 24 * 60},
			"hour": {kMinutes, 60}, "minute": {kMinutes, 1}, "min": {kMinutes, 1},
			"second": {kSeconds, 1}, "sec": {kSeconds, 1},
		}
	})
}

// others are the remaining words. "last" is the number -1 and "next" the
// number 2, so "next Monday" is the Monday after the coming one, as in
// PCP.
var othersTable onceMap

func others() map[string]entry {
	return othersTable.get(func() map[string]entry {
		return map[string]entry{
			"tomorrow": {kDayAlign, 24 * 60}, "yesterday": {kDayAlign, -24 * 60}, "today": {kDayAlign, 0},
			"now": {kMinutes, 0}, "this": {kMinutes, 0},
			"last": {kUnsigned, -1}, "next": {kUnsigned, 2}, "first": {kUnsigned, 1},
			"third": {kUnsigned, 3}, "fourth": {kUnsigned, 4}, "fifth": {kUnsigned, 5}, "sixth": {kUnsigned, 6},
			"seventh": {kUnsigned, 7}, "eighth": {kUnsigned, 8}, "ninth": {kUnsigned, 9}, "tenth": {kUnsigned, 10},
			"eleventh": {kUnsigned, 11}, "twelfth": {kUnsigned, 12},
			"ago": {kAgo, 1},
		}
	})
}

// military zones are single letters: a..m (no j) west, n..y east, z UTC.
func military(c byte) (entry, bool) {
	switch {
	case c >= 'a' && c <= 'i':
		return entry{kZone, west(int64(c-'a') + 1)}, true
	case c >= 'k' && c <= 'm':
		return entry{kZone, west(int64(c-'k') + 10)}, true
	case c >= 'n' && c <= 'y':
		return entry{kZone, west(-(int64(c-'n') + 1))}, true
	case c == 'z':
		return entry{kZone, 0}, true
	}
	return entry{}, false
}

// lookup classifies a word (letters and dots) in the order PCP's lexer
// tries its tables: meridians, month and day names, zones, "dst", units
// (also without a plural s), other words, military zones, and zones
// again with the dots taken out.
func lookup(word string) token {
	w := []byte(strings.ToLower(word))
	switch string(w) {
	case "am", "a.m.":
		return token{kind: kMeridian, val: 0}
	case "pm", "p.m.":
		return token{kind: kMeridian, val: 1}
	}
	abbrev := len(w) == 3
	if len(w) == 4 && w[3] == '.' {
		abbrev = true
		w = w[:3]
	}
	for _, n := range names {
		if abbrev && n.name[:3] == string(w) || !abbrev && n.name == string(w) {
			return token{n.kind, n.val}
		}
	}
	if e, ok := zones()[string(w)]; ok {
		return token{e.kind, e.val}
	}
	if string(w) == "dst" {
		return token{kind: kDST}
	}
	if e, ok := units()[string(w)]; ok {
		return token{e.kind, e.val}
	}
	if n := len(w); n > 0 && w[n-1] == 's' {
		if e, ok := units()[string(w[:n-1])]; ok {
			return token{e.kind, e.val}
		}
	}
	if e, ok := others()[string(w)]; ok {
		return token{e.kind, e.val}
	}
	if len(w) == 1 {
		if e, ok := military(w[0]); ok {
			return token{e.kind, e.val}
		}
	}
	if undotted := strings.ReplaceAll(string(w), ".", ""); len(undotted) != len(w) {
		if e, ok := zones()[undotted]; ok {
			return token{e.kind, e.val}
		}
	}
	return token{kind: kWord}
}
