package pmns

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/gopcp/gopcp/pcp"
)

// Options control how a PMNS file is read. The zero value reads it as
// pmLoadASCIINameSpace(file, 1) does, which is how pminfo -n and pmcd read
// one: through pmcpp, with several names allowed for one PMID.
type Options struct {
	// NoCPP reads the file without pmcpp, as pmLoadNameSpace does: no
	// comments, directives or macros, and the line numbers in messages run
	// one ahead (libpcp's own count starts at 1 before the first line).
	NoCPP bool
	// NoDuplicates refuses two names for one PMID, as pmcd -N and
	// pminfo -N do.
	NoDuplicates bool
	// Name is the file name that Parse reports and whose directory it
	// searches for #include; empty means pmcpp's "<stdin>" and no directory.
	// Load uses its path.
	Name string
	// IncludeDirs are searched for #include files after the file's own
	// directory, as pmcpp -I.
	IncludeDirs []string
	// SystemDir is searched last for #include files; empty means
	// SystemDir(), $PCP_VAR_DIR/pmns, as pmcpp does.
	SystemDir string
	// Defines predefine macros, each "name" or "name=value", as pmcpp -D.
	Defines []string
	// AllowShell lets #shell "command" run the command with /bin/sh, as
	// pmcpp would. Without it a #shell line fails with ErrShellDisabled.
	AllowShell bool

	// open replaces the file system for #include (tests and fuzzing).
	open func(path string) (io.Reader, error)
}

// SystemDir is $PCP_VAR_DIR/pmns, where the system PMNS and stdpmid live.
func SystemDir() string { return varDir() + "/pmns" }

// DefaultPath is the PMNS libpcp loads by default, given $PMNS_DEFAULT's
// value as the caller read it (os.Getenv("PMNS_DEFAULT")): that path when
// it is not empty, else $PCP_VAR_DIR/pmns/root.
func DefaultPath(pmnsDefault string) string {
	if pmnsDefault != "" {
		return pmnsDefault
	}
	return SystemDir() + "/root"
}

// LoadDefault loads DefaultPath(pmnsDefault) as libpcp does for a local
// context: without pmcpp, since that file is built with none of its
// syntax.
func LoadDefault(pmnsDefault string) (*Tree, error) {
	return LoadWith(DefaultPath(pmnsDefault), Options{NoCPP: true})
}

// Load reads the PMNS in a file with the default Options.
func Load(path string) (*Tree, error) { return LoadWith(path, Options{}) }

// LoadWith reads the PMNS in a file. A refused file gives a *ParseError.
func LoadWith(path string, opts Options) (*Tree, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &ParseError{
			Code:  pcp.CodeOf(err, pcp.ErrGeneric),
			Diags: []Diagnostic{{Line: -1, Msg: fmt.Sprintf("Cannot open \"%s\"", path), Col: -1}},
			Err:   err,
		}
	}
	f.Close()
	opts.Name = path
	if opts.NoCPP {
		// Read as it is parsed, as libpcp reads it.
		in, _, err := openInput(path)
		if err != nil {
			// libpcp reads a directory as an empty file.
			return parse(bytes.NewReader(nil), opts, true, nil)
		}
		defer in.Close()
		return parse(in, opts, true, nil)
	}
	data, err := readInput(path)
	if err != nil {
		// pmcpp cannot read it, and says so.
		return nil, &ParseError{
			Code:  pcp.ErrPMNS,
			CPP:   &CPPError{File: path, Msg: "No such file or directory", Err: err},
			Diags: []Diagnostic{{Line: -1, Msg: cppExit, Col: -1}},
			Err:   err,
		}
	}
	return parseBytes(data, opts, true)
}

// Parse reads a PMNS from r. A refused input gives a *ParseError.
func Parse(r io.Reader, opts Options) (*Tree, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("pmns: reading %s: %w", opts.Name, err)
	}
	return parseBytes(data, opts, opts.Name != "")
}

func parseBytes(data []byte, opts Options, named bool) (*Tree, error) {
	name := opts.Name
	if !named {
		name = "<stdin>"
	}
	if opts.NoCPP {
		return parse(bytes.NewReader(data), opts, named, nil)
	}
	cfg := &cppConfig{
		top:        name,
		incDirs:    opts.IncludeDirs,
		sysDir:     opts.SystemDir,
		defines:    opts.Defines,
		allowShell: opts.AllowShell,
		open:       opts.open,
	}
	if named {
		cfg.topDir = dirname(name)
	}
	if cfg.sysDir == "" {
		cfg.sysDir = SystemDir()
	}
	src, cppErr := preprocess(data, cfg)
	return parse(bytes.NewReader(src), opts, named, cppErr)
}

// parse reads a PMNS, pmcpp's output or a file read without it; cppErr
// is pmcpp's failure, if it failed.
func parse(in io.Reader, opts Options, named bool, cppErr *CPPError) (*Tree, error) {
	name := opts.Name
	if !named {
		name = "<stdin>"
	}
	l := newLexer(in, name, cppErr)
	blocks, ok := parseBlocks(l)
	if ok {
		var root *node
		if root, ok = assemble(l, blocks, opts.NoDuplicates); ok {
			return newTree(root), nil
		}
	}
	// When pmcpp fails, it says so on its standard error even if libpcp's
	// parser stopped first (unless pmcpp's output outgrew the pipe and it
	// never got that far), and it does so before libpcp, which is still
	// reading.
	return nil, &ParseError{Code: pcp.ErrPMNS, Diags: l.diags, CPP: cppErr}
}
