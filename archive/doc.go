// Package archive reads PCP archives, versions 2 and 3, as PCP 6.0.3
// writes them: the label, the metadata (descriptors with their names,
// instance domains including version 3's delta records, label sets and
// help text), the temporal index and the data volumes, plain or
// compressed (xz, lzma, bzip2, gzip, and compress(1)'s .Z, which libpcp
// reads through gzip), across any number of volumes.
//
// Open finds an archive's files from its base name or the name of any of
// its files, checks the labels and loads the metadata and index as libpcp
// does, keeping PCP's errors (pcp.ErrLabel, pcp.ErrLogRec, ...). A Reader
// walks the data records forwards or backwards from any time, decoding
// each into a caller's pcp.Result with no allocation per value. A damaged
// record ends the walk with pcp.ErrLogRec and the record's offset, every
// record before it having been delivered.
//
// The metadata is kept in the same order libpcp keeps it (its hash tables
// and reverse chronological chains are emulated), so tools can report it
// in PCP's order. An Archive is safe for concurrent use once opened, as
// long as its metadata is only read (instance domains are resolved on
// load); a Reader is for one goroutine.
package archive
