package webapi

import (
	"errors"
	"net/url"
	"strings"
	"sync"
)

// params are a request's query parameters, read as url.ParseQuery reads
// them (the same pieces kept and refused, the same unescaping), kept as
// name and value pairs in their order: a name's value is its first, as
// url.Values.Get gives it. A url.Values map and its slices were a third
// of what a fetch allocated; these pairs live in a pooled slice.
type params struct {
	kv []string // name, value, name, value...
}

// maxParams is url.ParseQuery's bound on the pieces of a query (its
// default; the urlmaxqueryparams GODEBUG setting is not read here).
const maxParams = 10000

var errTooManyParams = errors.New("number of URL query parameters exceeded limit")

var paramsPool = sync.Pool{New: func() any { return &params{kv: make([]string, 0, 16)} }}

// parseParams reads a raw query; on an error the pairs read are
// returned as url.ParseQuery returns its map with the error. The result
// goes back to the pool with release.
func parseParams(query string) (*params, error) {
	p := paramsPool.Get().(*params)
	if strings.Count(query, "&")+1 > maxParams {
		return p, errTooManyParams
	}
	var err error
	for query != "" {
		var piece string
		piece, query, _ = strings.Cut(query, "&")
		if strings.Contains(piece, ";") {
			err = errors.New("invalid semicolon separator in query")
			continue
		}
		if piece == "" {
			continue
		}
		key, value, _ := strings.Cut(piece, "=")
		key, err1 := url.QueryUnescape(key)
		if err1 == nil {
			value, err1 = url.QueryUnescape(value)
		}
		if err1 != nil {
			if err == nil {
				err = err1
			}
			continue
		}
		p.kv = append(p.kv, key, value)
	}
	return p, err
}

// get is name's first value; ok says whether the query has name.
func (p *params) get(name string) (string, bool) {
	for i := 0; i+1 < len(p.kv); i += 2 {
		if p.kv[i] == name {
			return p.kv[i+1], true
		}
	}
	return "", false
}

// setDefault gives name the value v unless the query has it.
func (p *params) setDefault(name, v string) {
	if _, ok := p.get(name); !ok {
		p.kv = append(p.kv, name, v)
	}
}

// release gives p back to the pool, unless a huge query grew it; the
// strings it held are let go.
func (p *params) release() {
	if cap(p.kv) > 256 {
		return
	}
	clear(p.kv)
	p.kv = p.kv[:0]
	paramsPool.Put(p)
}
