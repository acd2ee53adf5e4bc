package pmns

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// maxNesting is pmcpp's limit on open inputs: the top-level file and four
// levels of #include or #shell.
const maxNesting = 5

// cppConfig is what pmcpp learns from its command line and environment.
type cppConfig struct {
	top        string   // name of the top-level input, as line markers give it
	topDir     string   // its directory, searched for includes; "" for none
	incDirs    []string // -I
	sysDir     string   // $PCP_VAR_DIR/pmns, searched last
	defines    []string // -D name[=value]
	allowShell bool
	// shellStyle and restrict are pmcpp's -s and -r (see cpp_style.go).
	shellStyle bool
	restrict   bool
	// open reads an included file; nil means the file system. Tests and
	// the fuzzer replace it so that input cannot reach real files.
	open func(path string) (io.Reader, error)
}

type cppSource struct {
	name string
	r    *bufio.Reader
	line int
}

// preprocessor is one run of the pmcpp language.
type preprocessor struct {
	cfg         *cppConfig
	out         bytes.Buffer
	stack       []*cppSource
	cur         *cppSource
	line        []byte // the line in hand, for error messages
	macros      macroTable
	cond        int
	condLine    int
	skip        bool
	commentLine int
}

// preprocess returns exactly what pmcpp writes for src, line markers
// included. When pmcpp would fail, the text is what it wrote before
// stopping, and the error says why.
func preprocess(src []byte, cfg *cppConfig) ([]byte, *CPPError) {
	p := &preprocessor{cfg: cfg}
	err := p.run(src)
	var cerr *CPPError
	if err != nil && !errors.As(err, &cerr) {
		cerr = &CPPError{File: cfg.top, Msg: err.Error(), Err: err}
	}
	return p.out.Bytes(), cerr
}

func (p *preprocessor) run(src []byte) error {
	for i, d := range p.cfg.defines {
		// pmcpp turns -Dname=value into a #define line.
		line := []byte("#define " + strings.Replace(d, "=", " ", 1) + "\n")
		p.cur = &cppSource{name: "<arg>", line: i + 1}
		p.line = line
		if _, _, err := p.directive(line); err != nil {
			return err
		}
	}
	p.push(p.cfg.top, bytes.NewReader(src))
	for {
		line, ok := readCPPLine(p.cur.r)
		if !ok {
			if len(p.stack) == 1 {
				break
			}
			p.stack = p.stack[:len(p.stack)-1]
			p.cur = p.stack[len(p.stack)-1]
			p.marker()
			continue
		}
		p.cur.line++
		if !p.cfg.shellStyle {
			line = p.stripComments(line)
		}
		if p.commentLine != 0 && line[0] == '\n' {
			p.out.WriteByte('\n')
			continue
		}
		p.line = line
		if line[0] == p.cfg.ctl() {
			if err := p.control(line); err != nil {
				return err
			}
			continue
		}
		p.text(line)
	}
	p.cur.line = 0
	if p.commentLine != 0 {
		return p.fail(fmt.Sprintf("Comment at line %d not terminated before end of file", p.commentLine))
	}
	if p.cond != condNone {
		return p.fail(fmt.Sprintf("End of input and no matching #endif for #ifdef or #ifndef at line %d", p.condLine))
	}
	return nil
}

// text writes an ordinary line: blank while a false #ifdef holds, else
// with macros substituted.
func (p *preprocessor) text(line []byte) {
	if p.skip {
		p.out.WriteByte('\n')
		return
	}
	if p.cfg.restrict {
		p.out.Write(p.macros.substituteRestricted(line, p.cfg.ctl()))
		return
	}
	p.out.Write(p.macros.substitute(line))
}

// control handles a line that starts with '#'.
func (p *preprocessor) control(line []byte) error {
	switch {
	case bytes.HasPrefix(line[1:], []byte("include")):
		if p.skip {
			p.out.WriteByte('\n')
			return nil
		}
		name, err := p.quotedArg(line[len("#include"):], "include", `"<`, `Expected " or < after #include`)
		if err != nil {
			return err
		}
		r, path := p.openInclude(name)
		if r == nil {
			return p.fail("Cannot open file for #include")
		}
		p.push(path, r)
	case bytes.HasPrefix(line[1:], []byte("shell")):
		if p.skip {
			p.out.WriteByte('\n')
			return nil
		}
		cmd, err := p.quotedArg(line[len("#shell"):], "shell", `"'`, `Expected " or ' after #shell`)
		if err != nil {
			return err
		}
		if !p.cfg.allowShell {
			e := p.fail("Cannot open pipe for #shell").(*CPPError)
			e.Err = ErrShellDisabled
			return e
		}
		// pmcpp only warns when the command fails; its output still counts.
		out, _ := exec.Command("/bin/sh", "-c", cmd).Output()
		p.push("<shell>", bytes.NewReader(out))
	default:
		skip, known, err := p.directive(line)
		if err != nil {
			return err
		}
		if !known {
			// Not pmcpp's: the line is text, and even ends a false #ifdef.
			p.skip = false
			p.text(line)
			return nil
		}
		p.skip = skip
		p.out.WriteByte('\n')
	}
	return nil
}

func (p *preprocessor) push(name string, r io.Reader) {
	p.cur = &cppSource{name: name, r: bufio.NewReader(r)}
	p.stack = append(p.stack, p.cur)
	p.marker()
}

// marker writes the line marker that says the next line is line+1 of cur.
func (p *preprocessor) marker() {
	fmt.Fprintf(&p.out, "# %d \"%s\"\n", p.cur.line+1, p.cur.name)
}

func (p *preprocessor) fail(msg string) error {
	return &CPPError{File: p.cur.name, Line: p.cur.line, Text: string(p.line), Msg: p.cfg.styleMsg(msg)}
}

// openInclude finds name as pmcpp does: as given (so relative to the
// working directory), then, unless absolute, in the top file's directory,
// the -I directories and the system PMNS directory. It returns the reader
// and the path that worked, which the line markers show.
func (p *preprocessor) openInclude(name string) (io.Reader, string) {
	if r := p.openFile(name); r != nil {
		return r, name
	}
	if strings.HasPrefix(name, "/") {
		return nil, ""
	}
	var dirs []string
	if p.cfg.topDir != "" {
		dirs = append(dirs, p.cfg.topDir)
	}
	dirs = append(dirs, p.cfg.incDirs...)
	if p.cfg.sysDir != "" {
		dirs = append(dirs, p.cfg.sysDir)
	}
	for _, d := range dirs {
		path := d + "/" + name
		if r := p.openFile(path); r != nil {
			return r, path
		}
	}
	return nil, ""
}

func (p *preprocessor) openFile(path string) io.Reader {
	if p.cfg.open != nil {
		r, err := p.cfg.open(path)
		if err != nil {
			return nil
		}
		return r
	}
	data, err := readInput(path)
	if err != nil {
		return nil
	}
	return bytes.NewReader(data)
}

// readInput reads a file pmcpp would accept as input: a regular file or a
// character device (like /dev/null), nothing else.
func readInput(path string) ([]byte, error) {
	f, st, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Read at the file's size, not grown from 512 bytes: a 50 kB
	// namespace left 200 kB of outgrown buffers behind.
	var b bytes.Buffer
	b.Grow(int(min(st.Size(), maxPreallocate)) + bytes.MinRead)
	_, err = b.ReadFrom(f)
	return b.Bytes(), err
}

// openInput opens a file to read as a namespace: a regular file or a
// character device.
func openInput(path string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if m := st.Mode(); !m.IsRegular() && m&os.ModeCharDevice == 0 {
		f.Close()
		// pmcpp reports ENOENT for an input that is not a file.
		return nil, nil, &os.PathError{Op: "open", Path: path, Err: syscall.ENOENT}
	}
	return f, st, nil
}

// maxPreallocate bounds what readInput sets aside from the file's size
// alone; a larger input grows as it is read.
const maxPreallocate = 64 << 20

// dirname is dirname(3), which names the directory pmcpp searches first.
func dirname(path string) string {
	for len(path) > 1 && strings.HasSuffix(path, "/") {
		path = path[:len(path)-1]
	}
	i := strings.LastIndexByte(path, '/')
	switch {
	case i < 0:
		return "."
	case i == 0:
		return "/"
	}
	path = path[:i]
	for len(path) > 1 && strings.HasSuffix(path, "/") {
		path = path[:len(path)-1]
	}
	return path
}
