package linux

import "sort"

// Names lists the metrics the agent serves, in PCP's namespace order.
func Names() []string {
	x, err := newLinux(Options{})
	if err != nil {
		return nil
	}
	var names []string
	for i := range pcpDescs {
		if _, ok := x.boundAt(i); ok {
			names = append(names, pcpDescs[i].Name)
		}
	}
	return names
}

// PCPNames lists every metric PCP 6.0.3's pmdalinux served on the host the
// descriptor table was captured on.
func PCPNames() []string {
	names := make([]string, len(pcpDescs))
	for i := range pcpDescs {
		names[i] = pcpDescs[i].Name
	}
	sort.Strings(names)
	return names
}
