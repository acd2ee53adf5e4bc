package timewindow

import (
	"errors"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestReport: a time libpcp refuses is worded as its two lines, any
// other error by its text.
func TestReport(t *testing.T) {
	_, err := ParseTime("@not a time", pcp.Timestamp{}, pcp.Timestamp{Sec: MaxTime}, nil)
	var te *TimeError
	if !errors.As(err, &te) {
		t.Fatalf("ParseTime gave %v, want a TimeError", err)
	}
	if got := Report(err); got != te.Report() {
		t.Errorf("Report(TimeError) = %q, want %q", got, te.Report())
	}
	other := errors.New("something else")
	if got := Report(other); got != "something else" {
		t.Errorf("Report(other) = %q", got)
	}
}
