// Package pmns is the Performance Metrics Name Space: the tree that maps
// metric names such as kernel.all.load to PMIDs, read from the pmns(5) file
// language exactly as PCP 6.0.3 reads it, or built in code by agents, archive
// readers and tests.
//
// A file is first run through the pmcpp(1) language (comments, #define and
// macro substitution, #undef, #ifdef/#ifndef/#else/#endif, #include, and
// #shell when allowed), unless Options.NoCPP asks for the raw reading
// pmLoadNameSpace uses. The result is parsed with libpcp's rules, quirks
// included, and refused with libpcp's own messages (see ParseError.Report).
//
// The Tree answers the name-space questions of the PMAPI the way a local
// PMNS in libpcp answers them: Lookup (pmLookupName), NameID and NameAll
// (pmNameID, pmNameAll), Children (pmGetChildrenStatus) and Traverse
// (pmTraversePMNS), in PCP's order. Names at or below the root of a dynamic
// subtree (a DOMAIN:*:* entry) look up to that root's special PMID, which
// DynamicDomain turns back into the agent's domain. Derived metrics are not
// part of a name space and are not known here.
//
// A Tree is safe for concurrent use: any number of goroutines may query it
// while another adds names.
package pmns
