package cli

import "strings"

// AddArchive is __pmAddOptArchive for a tool with one context: every -a
// (and PCP_ARCHIVE, or an operand a tool takes as its archive) joins one
// comma-separated list in Archives[0], which pmapi opens as a list of
// archives. A name already in the list is not added again, judged as
// libpcp judges it: by its first occurrence in the list only. For a
// Command with Multi (a context per archive) each name is kept apart.
func (p *Parsed) AddArchive(name string) {
	if len(p.Hosts) > 0 {
		p.Errorf("only one host or archive allowed")
		return
	}
	if p.multi {
		for _, a := range p.Archives {
			if a == name {
				return
			}
		}
		p.Archives = append(p.Archives, name)
		return
	}
	if len(p.Archives) == 0 {
		p.Archives = []string{name}
		return
	}
	list := p.Archives[0]
	if i := strings.Index(list, name); i >= 0 && (i == 0 || list[i-1] == ',') {
		if j := i + len(name); j == len(list) || list[j] == ',' {
			return
		}
	}
	p.Archives[0] = list + "," + name
}
