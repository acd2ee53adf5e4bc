package proc

import (
	_ "embed" // the help source
	"fmt"
	"strconv"
	"strings"
	"sync"
)

//go:embed help.txt
var helpSource string

// helpTexts are the one-line texts by metric name and by instance
// domain serial.
type helpTexts struct {
	one       map[string]string
	indomOne  map[uint32]string
	indomHelp map[uint32]string
}

// help is helpSource read the first time an agent is made.
func help() (*helpTexts, error) {
	helpOnce.Do(func() { helpOnce.h, helpOnce.err = readHelp() })
	return helpOnce.h, helpOnce.err
}

var helpOnce struct {
	sync.Once
	h   *helpTexts
	err error
}

func readHelp() (*helpTexts, error) {
	h := &helpTexts{one: map[string]string{}, indomOne: map[uint32]string{}, indomHelp: map[uint32]string{}}
	for n, line := range strings.Split(helpSource, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		name, text, ok := strings.Cut(line, "\t")
		if !ok || text == "" {
			return nil, fmt.Errorf("proc: help line %d: no text", n+1)
		}
		if s, isInDom := strings.CutPrefix(name, "@"); isInDom {
			v, err := strconv.ParseUint(s, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("proc: help line %d: %v", n+1, err)
			}
			h.indomOne[uint32(v)] = text
			h.indomHelp[uint32(v)] = text + "."
			continue
		}
		h.one[name] = text
	}
	return h, nil
}

// text is a metric's one-line and full help.
func (h *helpTexts) text(name string) (string, string) {
	if t, ok := h.one[name]; ok {
		return t, t + "."
	}
	if rest, ok := strings.CutPrefix(name, "hotproc."); ok {
		if t, ok := h.one["proc."+rest]; ok {
			t += ", for the hot processes"
			return t, t + "."
		}
	}
	return "", ""
}
