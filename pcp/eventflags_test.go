package pcp

import (
	"fmt"
	"strings"
	"testing"
)

func TestEventFlagsStrMatchesLibpcp(t *testing.T) {
	// The inputs are built from our constants, so a wrong constant shows
	// up as a name libpcp does not give that bit.
	defined := []uint32{EventFlagPoint, EventFlagStart, EventFlagEnd, EventFlagID, EventFlagParent, EventFlagMissed}
	// Every combination of the defined bits, alone and with undefined
	// bits: each single one, and all of them together.
	extras := []uint32{0, ^uint32(0x8000001f)}
	for bit := 5; bit < 31; bit++ {
		extras = append(extras, 1<<bit)
	}
	var input, ours strings.Builder
	for combo := range 1 << len(defined) {
		var flags uint32
		for i, d := range defined {
			if combo&(1<<i) != 0 {
				flags |= d
			}
		}
		for _, x := range extras {
			line := fmt.Sprintf("%08x", flags|x)
			input.WriteString(line + "\n")
			ours.WriteString(line + " -> [" + EventFlagsStr(flags|x) + "]\n")
		}
	}
	checkAgainstLibpcp(t, "eventflags", input.String(), ours.String(), nil)
}
