package pmlogger

import (
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
	} {
		got, had := ArchiveName(c.in, at)
		if got != c.want || had != c.had {
			t.Errorf("ArchiveName(%q) = %q, %v; want %q, %v", c.in, got, had, c.want, c.had)
		}
	}
}
