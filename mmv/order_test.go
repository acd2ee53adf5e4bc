package mmv

import "encoding/binary"

// le is the byte order of an MMV file, for the tests.
var le = binary.LittleEndian
