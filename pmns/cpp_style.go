package pmns

import "strings"

// PreprocessOptions selects pmcpp's command-line behaviour for
// Preprocess. The zero value is plain pmcpp reading "<stdin>".
type PreprocessOptions struct {
	Name        string   // the input's name in line markers and errors
	IncludeDirs []string // -I, searched after the input's own directory
	Defines     []string // -D name[=value]
	ShellStyle  bool     // -s: '%' starts control lines, no comment stripping
	Restrict    bool     // -r: only %name and %{name} (#name with -s off) expand
	AllowShell  bool     // let %shell / #shell run commands
}

// Preprocess runs the pmcpp language over src as pmcpp with opt's flags
// would, returning its output, line markers included. The error, when not
// nil, is a *CPPError whose Report is pmcpp's message. Other programs
// whose configurations go through pmcpp (pmlogger runs "pmcpp -rs") use
// this.
func Preprocess(src []byte, opt PreprocessOptions) ([]byte, error) {
	name := opt.Name
	cfg := &cppConfig{
		top:        "<stdin>",
		incDirs:    opt.IncludeDirs,
		defines:    opt.Defines,
		allowShell: opt.AllowShell,
		shellStyle: opt.ShellStyle,
		restrict:   opt.Restrict,
	}
	if name != "" {
		cfg.top = name
		cfg.topDir = dirname(name)
	}
	out, cerr := preprocess(src, cfg)
	if cerr != nil {
		return out, cerr
	}
	return out, nil
}

// ctl is the character that starts a control line.
func (c *cppConfig) ctl() byte {
	if c.shellStyle {
		return '%'
	}
	return '#'
}

// styleMsg gives a message the control character of the input's style.
func (c *cppConfig) styleMsg(msg string) string {
	if !c.shellStyle {
		return msg
	}
	return strings.ReplaceAll(msg, "#", "%")
}

// substituteRestricted is substitute under -r: only ctl followed by a
// name (a letter or digit, then letters, digits and underscores) or by
// {name} is a macro reference; the whole reference is replaced.
func (m *macroTable) substituteRestricted(line []byte, ctl byte) []byte {
	var out []byte // nil until the first substitution
	for i := 0; i < len(line); {
		if line[i] != ctl {
			if out != nil {
				out = append(out, line[i])
			}
			i++
			continue
		}
		j, name := restrictedRef(line, i)
		if v, ok := m.values[name]; ok && name != "" {
			if out == nil {
				out = append(make([]byte, 0, len(line)+len(v)), line[:i]...)
			}
			out = append(out, v...)
		} else if out != nil {
			out = append(out, line[i:j]...)
		}
		i = j
	}
	if out == nil {
		return line
	}
	return out
}

// restrictedRef scans the reference starting at line[i] (the control
// character) and returns where it ends and the macro name it holds ("" for
// none).
func restrictedRef(line []byte, i int) (int, string) {
	j := i + 1
	if j >= len(line) {
		return j, ""
	}
	if line[j] == '{' {
		if j+1 >= len(line) || !isAlnum(line[j+1]) {
			return j + 1, ""
		}
		k := j + 1
		for k < len(line) && line[k] != '}' && line[k] != '\n' {
			k++
		}
		if k < len(line) && line[k] == '}' {
			return k + 1, string(line[j+1 : k])
		}
		return k, ""
	}
	if !isAlnum(line[j]) {
		return j, ""
	}
	k := j + 1
	for k < len(line) && (isAlnum(line[k]) || line[k] == '_') {
		k++
	}
	return k, string(line[j:k])
}
