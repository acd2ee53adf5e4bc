package pmns

import (
	"bytes"

	"github.com/gopcp/gopcp/pcp"
)

// classify sorts a token as libpcp does. A name starts with a letter and
// goes on with letters, digits and underscores; a dot anywhere after the
// first byte makes it a path. Anything else must be a PMID, and a bad PMID
// is reported here before the parser complains of the unexpected token.
func (l *lexer) classify(text []byte) token {
	switch string(text) {
	case "{":
		return token{kind: tokLBrace}
	case "}":
		return token{kind: tokRBrace}
	}
	if isAlpha(text[0]) {
		kind := tokName
		i := 1
		for ; i < len(text); i++ {
			if c := text[i]; c == '.' {
				kind = tokPath
			} else if !isAlnum(c) && c != '_' {
				break
			}
		}
		if i == len(text) {
			// Only names are kept, so only they become strings: a
			// system namespace has thousands of PMIDs, each a small
			// allocation in a short-lived tool (pminfo -L).
			return token{kind: kind, text: string(text)}
		}
	}
	colons := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == ':':
			if colons++; colons > 3 {
				return token{kind: tokBogus}
			}
		case !isDigit(c) && c != '*':
			return token{kind: tokBogus}
		}
	}
	pmid, msg := parsePMID(text)
	if msg != "" {
		l.diag(msg)
		return token{kind: tokBogus}
	}
	return token{kind: tokPMID, pmid: pmid}
}

// parsePMID reads domain:cluster:item, or domain:*:* for the root of a
// dynamic subtree, with libpcp's scanf-based leniency: anything after the
// item is ignored, and a bare number is a dynamic root. Fields are cut to
// their width as C bit-fields cut them. msg is libpcp's complaint, if any.
func parsePMID(b []byte) (pcp.PMID, string) {
	d, n := cInt(b)
	if n > 0 && n < len(b) && b[n] == ':' {
		rest := b[n+1:]
		if c, n2 := cInt(rest); n2 > 0 && n2 < len(rest) && rest[n2] == ':' {
			if i, n3 := cInt(rest[n2+1:]); n3 > 0 {
				switch {
				case d > 510:
					return 0, "Illegal domain field in PMID"
				case c > 4095:
					return 0, "Illegal cluster field in PMID"
				case i > 1023:
					return 0, "Illegal item field in PMID"
				}
				return pcp.NewPMID(uint32(d), uint32(c), uint32(i)), ""
			}
		}
	}
	if k := bytes.IndexByte(b, ':'); k >= 0 && string(b[k+1:]) != "*:*" {
		return 0, "Illegal PMID"
	}
	if n == 0 {
		return 0, "Illegal PMID"
	}
	if d > 510 {
		return 0, "Illegal domain field in dynamic PMID"
	}
	return DynamicRoot(uint32(d)), ""
}
