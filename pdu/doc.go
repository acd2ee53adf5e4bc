// Package pdu encodes and decodes PCP's protocol data units, the messages
// that clients, pmcd, agents and pmlogger exchange, byte for byte as PCP 6
// does, and frames them over a stream with a size limit and deadlines.
//
// Every PDU is a 12-byte header (length, type, sender, each a big-endian
// 32-bit integer) followed by a body whose layout depends on the type. Each
// PDU type is a Go struct in a file of its own with an append-style encoder
// and a decoder that checks every length against the bytes it was given:
// bad input is an error wrapping pcp.ErrIPC, never a panic or an allocation
// larger than the input justifies.
//
// Encoders and decoders keep no state and are safe for concurrent use on
// distinct values. Decoded values may alias the input buffer where a field
// says so; copy such fields before reusing the buffer.
package pdu
