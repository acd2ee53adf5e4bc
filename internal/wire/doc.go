// Package wire is the project's one bounded reader of binary layouts: PDUs
// (big-endian), archive records and MMV files (native, little-endian on
// every platform PCP builds MMV for).
//
// A Decoder has a sticky error: once a read fails every later read returns
// zero values and leaves the offset alone, so a caller reads all the fields
// of a record and checks the error once. Every read is checked against the
// bytes given, and Count checks an element count against what is left, so
// no input can make a caller index out of range or allocate more than the
// input justifies.
//
// LabelSet reads PCP's label sets, the one structure that PDUs and archives
// both carry, in either layout, with the limits libpcp checks in each.
package wire
