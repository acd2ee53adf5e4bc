// Package mmvfile reads MMV files, the memory mapped files libpcp_mmv and
// package mmv write (mmv(5)), for the MMV agent and mmvdump.
//
// Parse decodes a file's header, table of contents and every section
// through the project's bounded decoder (internal/wire), little-endian:
// every count and offset is checked against the file's length before it is
// followed, so that any bytes give a *File or an error, never a crash or an
// allocation larger than the file justifies. Values are not copied: a
// File keeps the bytes it was given (normally the live mapping) and Value
// reads a value's current bits from them, as pmdammv reads its mappings.
//
// The checks are pmdammv's (src/pmdas/mmv/src/mmv.c in PCP 6.0.3), with
// one difference: pmdammv skips a section whose count or extent is wrong
// and follows unchecked offsets in the rest, where Parse refuses the whole
// file, so that a reader never follows an offset it has not checked.
package mmvfile
