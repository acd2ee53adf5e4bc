package series

import (
	"fmt"
	"strings"
)

// LoadSource reads the archive path of a load expression,
// {source.path: "..."} (or source.name), as pmseries --load takes it.
func LoadSource(expr string) (string, error) {
	s := strings.TrimSpace(expr)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return "", fmt.Errorf("found no context to load")
	}
	s = strings.TrimSpace(s[1 : len(s)-1])
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		switch k {
		case "source.path", "source.name", "source.archive", "source.directory":
		default:
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		if v != "" {
			return v, nil
		}
	}
	return "", fmt.Errorf("found no context to load")
}
