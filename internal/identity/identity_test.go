package identity

import (
	"regexp"
	"strings"
	"testing"
)

// TestSetUnknownUser: a user that does not exist is refused with
// pmSetProcessIdentity's critical line, and the process is left as it
// was (the lookup fails before any switch).
func TestSetUnknownUser(t *testing.T) {
	var b strings.Builder
	if Set("no-such-user-gopcp", &b, "prog") {
		t.Fatal("Set switched to a user that does not exist")
	}
	want := regexp.MustCompile(`^\[\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d\] prog\(\d+\) Critical: cannot find the no-such-user-gopcp user to switch to\n$`)
	if !want.MatchString(b.String()) {
		t.Errorf("message %q", b.String())
	}
}
