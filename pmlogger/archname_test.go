package pmlogger

import (
	"strings"
	"testing"
	"time"
)

func TestArchiveName(t *testing.T) {
	at := time.Date(2026, 3, 7, 9, 5, 4, 0, time.UTC)
	for _, c := range []struct {
		in, want string
		had      bool
	}{
		{"plain", "plain", false},
		{"%Y%m%d.%H.%M", "20260307.09.05", true},
		{"a-%y%j-%S%%", "a-26066-04%", true},
		{"%e|%I%p|%a %b|%F %T|%q|%", " 7|09AM|Sat Mar|2026-03-07 09:05:04|%q|%", true},
		// glibc's flags, widths and modifiers, as strftime(3) expands them
		{"%-d|%_H|%010Y|%^a|%#Z|%Ey|%Od|%5|%c|%G-W%V", "7| 9|0000002026|SAT|utc|26|07|  %5|Sat Mar  7 09:05:04 2026|2026-W10", true},
	} {
		got, had, err := ArchiveName(c.in, at)
		if got != c.want || had != c.had || err != nil {
			t.Errorf("ArchiveName(%q) = %q, %v, %v; want %q, %v", c.in, got, had, err, c.want, c.had)
		}
	}
}

// TestArchiveNameTooLong: an expansion that does not fit in MAXPATHLEN
// fails, as strftime does in PCP's pmlogger, and nothing that large is
// built.
func TestArchiveNameTooLong(t *testing.T) {
	at := time.Date(2026, 3, 7, 9, 5, 4, 0, time.UTC)
	for _, p := range []string{"%4096Y", "%2147483647d", strings.Repeat("%c", 200)} {
		if name, had, err := ArchiveName(p, at); err == nil || !had || name != "" {
			t.Errorf("ArchiveName(%.20q) = %.20q, %v, %v; want an error", p, name, had, err)
		}
	}
	if name, _, err := ArchiveName("%4094Y", at); err != nil || len(name) != 4094 {
		t.Errorf("ArchiveName(%%4094Y) = %d bytes, %v", len(name), err)
	}
}
