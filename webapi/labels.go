package webapi

import (
	"errors"

	"github.com/gopcp/gopcp/pcp"
)

// parseLabelSet builds the one-label set {"hostname":"..."} pmproxy uses
// for a context whose pmcd has no context labels (default_labelset).
func parseLabelSet(json string) (*pcp.LabelSet, error) {
	// json is {"name":value} with one label.
	if len(json) < 7 || json[0] != '{' || json[1] != '"' {
		return nil, errors.New("webapi: bad default label set")
	}
	end := 2
	for end < len(json) && json[end] != '"' {
		end++
	}
	if end+2 >= len(json) || json[end+1] != ':' {
		return nil, errors.New("webapi: bad default label set")
	}
	nameLen := end - 2
	valOff := end + 2
	valLen := len(json) - 1 - valOff
	if nameLen > 255 || valOff > 65535 || valLen > 65535 {
		return nil, errors.New("webapi: default label too long")
	}
	return &pcp.LabelSet{
		Inst: pcp.InstNull, NLabels: 1, JSON: json,
		Labels: []pcp.Label{{Name: 2, NameLen: uint8(nameLen), Value: uint16(valOff), ValueLen: uint16(valLen), Flags: pcp.LabelContext}},
	}, nil
}

// firstSet returns the first label set of an answer that has labels, as
// pmproxy keeps one set per level, or nil.
func firstSet(sets []pcp.LabelSet, err error) *pcp.LabelSet {
	if err != nil || len(sets) == 0 || sets[0].NLabels <= 0 {
		return nil
	}
	s := sets[0]
	return &s
}
