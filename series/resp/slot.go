package resp

import "strings"

// Slots is the number of hash slots of a Redis Cluster.
const Slots = 16384

// KeySlot is a key's hash slot: CRC16 (XMODEM) of the key, or of its hash
// tag (what lies between its first "{" and the next "}", when not empty).
func KeySlot(k string) int {
	if i := strings.IndexByte(k, '{'); i >= 0 {
		if j := strings.IndexByte(k[i+1:], '}'); j > 0 {
			k = k[i+1 : i+1+j]
		}
	}
	return int(crc16(k) % Slots)
}

var crc16Table = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

func crc16(s string) uint16 {
	var c uint16
	for i := 0; i < len(s); i++ {
		c = c<<8 ^ crc16Table[byte(c>>8)^s[i]]
	}
	return c
}

// keyless are the commands (of those a client of series data sends) that
// name no key: a cluster sends them to any node. Any other command's key
// is its first argument.
var keyless = map[string]bool{
	"AUTH": true, "CLIENT": true, "CLUSTER": true, "COMMAND": true, "CONFIG": true,
	"DBSIZE": true, "ECHO": true, "FLUSHALL": true, "FLUSHDB": true, "HELLO": true,
	"INFO": true, "KEYS": true, "MODULE": true, "PING": true, "SCAN": true,
	"TIME": true, "ASKING": true, "READONLY": true, "ROLE": true, "MEMORY": true,
}

// commandKey is the key a command routes by; ok is false for a command
// that names none.
func commandKey(args []string) (string, bool) {
	if len(args) < 2 || keyless[strings.ToUpper(args[0])] {
		return "", false
	}
	return args[1], true
}
