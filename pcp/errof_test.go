package pcp_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func TestCodeOf(t *testing.T) {
	_, notExist := os.Open("/nonexistent/gopcp-codeof")
	tests := []struct {
		name     string
		err      error
		fallback pcp.Error
		want     pcp.Error
	}{
		{"nil", nil, pcp.ErrGeneric, 0},
		{"pcp", pcp.ErrPMID, pcp.ErrGeneric, pcp.ErrPMID},
		{"wrapped pcp", fmt.Errorf("fetch: %w", pcp.ErrNoAgent), pcp.ErrGeneric, pcp.ErrNoAgent},
		{"errno", syscall.EPIPE, pcp.ErrGeneric, pcp.Error(-int32(syscall.EPIPE))},
		{"path error", notExist, pcp.ErrGeneric, pcp.Error(-int32(syscall.ENOENT))},
		{"fs.ErrNotExist", fmt.Errorf("x: %w", fs.ErrNotExist), pcp.ErrIPC, pcp.Error(-int32(syscall.ENOENT))},
		{"fs.ErrPermission", fs.ErrPermission, pcp.ErrIPC, pcp.Error(-int32(syscall.EACCES))},
		{"plain", errors.New("plain"), pcp.ErrIPC, pcp.ErrIPC},
		{"plain generic", errors.New("plain"), pcp.ErrGeneric, pcp.ErrGeneric},
		{"positive code is not an error", pcp.Error(3), pcp.ErrGeneric, pcp.ErrGeneric},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pcp.CodeOf(tt.err, tt.fallback); got != tt.want {
				t.Errorf("CodeOf(%v, %d) = %d, want %d", tt.err, tt.fallback, got, tt.want)
			}
		})
	}
}

// TestCodeOfAllocs: an agent's fetch reports each metric left without a
// value by its error's code, so the common bare errors must cost no
// allocation.
func TestCodeOfAllocs(t *testing.T) {
	for _, err := range []error{pcp.ErrAppVersion, syscall.ENOENT} {
		if n := testing.AllocsPerRun(10, func() { pcp.CodeOf(err, pcp.ErrGeneric) }); n != 0 {
			t.Errorf("CodeOf(%v): %v allocations, want 0", err, n)
		}
	}
}

func TestTextOf(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{nil, "No error"},
		{fmt.Errorf("lookup: %w", pcp.ErrName), "Unknown metric name"},
		{syscall.ECONNREFUSED, "Connection refused"},
		{errors.New("bad option"), "bad option"},
	}
	for _, tt := range tests {
		if got := pcp.TextOf(tt.err); got != tt.want {
			t.Errorf("TextOf(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func ExampleCodeOf() {
	err := fmt.Errorf("reading sample.long.one: %w", pcp.ErrNoAgent)
	fmt.Println(pcp.CodeOf(err, pcp.ErrGeneric) == pcp.ErrNoAgent, errors.Is(err, pcp.ErrNoAgent))
	fmt.Println(pcp.CodeOf(errors.New("no code"), pcp.ErrGeneric).Code())
	// Output:
	// true true
	// -12345
}

func ExampleTextOf() {
	fmt.Println(pcp.TextOf(fmt.Errorf("pmLookupName: %w", pcp.ErrName)))
	// Output: Unknown metric name
}
