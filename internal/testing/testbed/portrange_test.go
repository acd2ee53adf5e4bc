package testbed

import "testing"

// TestChoosePortRange: the private range is the first candidate outside
// the kernel's ephemeral range, whatever the machine sets it to.
func TestChoosePortRange(t *testing.T) {
	tests := []struct {
		setting string
		want    [2]int
	}{
		{"32768\t60999\n", [2]int{20400, 20999}}, // Linux's default
		{"49152 65535", [2]int{44400, 44999}},    // IANA's dynamic ports
		{"20500 32000", [2]int{44400, 44999}},
		{"20000 60999", [2]int{44400, 44999}}, // all overlap: the first, checked port by port
		{"1024 20399", [2]int{44400, 44999}},
		{"21000 60999", [2]int{20400, 20999}},
		{"20000 45000", [2]int{44400, 44999}},
		{"1024 65535", [2]int{44400, 44999}},
		{"45000 45000", [2]int{44400, 44999}},
		{"44999 50000", [2]int{20400, 20999}}, // touching the range's end is overlap
		{"20999 30000", [2]int{44400, 44999}},
	}
	for _, tt := range tests {
		lo, hi, ok := parsePortRange(tt.setting)
		if !ok {
			t.Errorf("%q: not parsed", tt.setting)
			continue
		}
		if got := choosePortRange(portRanges, lo, hi); got != tt.want {
			t.Errorf("ephemeral %q: range %v, want %v", tt.setting, got, tt.want)
		}
	}
	for _, bad := range []string{"", "32768", "a b", "60999 32768", "1 2 3"} {
		if _, _, ok := parsePortRange(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestFreePortInPrivateRange: FreePort hands out ports of the range
// chosen for this machine.
func TestFreePortInPrivateRange(t *testing.T) {
	p, release, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	r := privatePorts()
	if p < r[0] || p > r[1] {
		t.Fatalf("port %d outside the private range %v", p, r)
	}
	t.Logf("private range %v, port %d", r, p)
}
