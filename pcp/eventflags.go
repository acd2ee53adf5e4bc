package pcp

import "strings"

// Event record flags, PM_EVENT_FLAG_* in PCP.
const (
	EventFlagPoint  uint32 = 1 << 0  // an observation, the default
	EventFlagStart  uint32 = 1 << 1  // the start of an event
	EventFlagEnd    uint32 = 1 << 2  // the end of an event
	EventFlagID     uint32 = 1 << 3  // the first parameter is a trace ID
	EventFlagParent uint32 = 1 << 4  // the second parameter is the parent's ID
	EventFlagMissed uint32 = 1 << 31 // the record counts missed events
)

// EventFlagsStr names the flags set in flags, comma separated, as
// pmEventFlagsStr does. A record of missed events is just "missed",
// whatever else is set; undefined bits are ignored.
func EventFlagsStr(flags uint32) string {
	if flags&EventFlagMissed != 0 {
		return "missed"
	}
	names := [...]struct {
		bit  uint32
		name string
	}{
		{EventFlagPoint, "point"},
		{EventFlagStart, "start"},
		{EventFlagEnd, "end"},
		{EventFlagID, "id"},
		{EventFlagParent, "parent"},
	}
	var b strings.Builder
	for _, n := range names {
		if flags&n.bit == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(n.name)
	}
	return b.String()
}
