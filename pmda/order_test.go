package pmda

import "encoding/binary"

// hostOrder is the byte order of event records in memory, for the tests.
var hostOrder = binary.NativeEndian
