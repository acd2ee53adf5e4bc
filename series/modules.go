package series

import (
	"context"
	"errors"
	"strings"
)

// HasSearchModule says whether the Redis server has the search module
// PCP's /search/* needs (RediSearch, module name "search").
func (s *Store) HasSearchModule(ctx context.Context) (bool, error) {
	r, err := s.c.Do(ctx, "MODULE", "LIST")
	if err != nil {
		if strings.Contains(err.Error(), "unknown") {
			return false, nil // a server without modules at all
		}
		return false, errors.New("Redis: MODULE LIST: " + err.Error())
	}
	for _, m := range r.Elems {
		// a module's fields and values (an array, or a RESP3 map)
		if v := m.StringMap()["name"]; strings.EqualFold(v, "search") || strings.EqualFold(v, "ft") {
			return true, nil
		}
	}
	return false, nil
}
