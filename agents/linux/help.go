package linux

// helpText returns a metric's one-line and full help.
func helpText(name string) (string, string) {
	loadHelp()
	if h, ok := metricHelp[name]; ok {
		return h[0], h[1]
	}
	return familyHelp(name)
}

// indomHelp returns an instance domain's help.
func indomHelp(serial int) (string, string) {
	loadHelp()
	if h, ok := indomHelps[serial]; ok {
		return h[0], h[1]
	}
	return "", ""
}
