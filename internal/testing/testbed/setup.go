package testbed

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// setupTimeout bounds each PCP helper program run while preparing a bed.
const setupTimeout = 30 * time.Second

// makeDirs creates the private tree: run/ for sockets, tmp/pmlogger/ for
// pmlogger port maps, log/ as pmcd's working directory and pmdas/ for
// help text built for agents. Agents open their logs before dropping
// privileges to user pcp but read help text after, so the tree must be
// readable by all, whatever the umask.
func makeDirs(root string) error {
	for _, d := range []string{".", "run", "tmp", "tmp/pmlogger", "log", "pmns", "pmdas"} {
		p := filepath.Join(root, d)
		if err := os.MkdirAll(p, 0o755); err != nil {
			return err
		}
		if err := os.Chmod(p, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// writePMNS builds the namespace pmcd loads with -n: each agent's part is
// either a PCP root file or a subtree wrapped in a root of its own, and
// PCP's pmnsmerge joins them as the PMDA Install scripts would.
func writePMNS(in *Install, root string, agents []Agent) (string, error) {
	var inputs []string
	for _, a := range agents {
		if a.pmnsRoot != "" {
			src := in.expand(a.pmnsRoot)
			if _, err := os.Stat(src); err != nil {
				return "", fmt.Errorf("%w: agent %s PMNS: %v", ErrNotInstalled, a.Name, err)
			}
			inputs = append(inputs, src)
			continue
		}
		src := in.expand(a.pmnsSubtree)
		if _, err := os.Stat(src); err != nil {
			return "", fmt.Errorf("%w: agent %s PMNS: %v", ErrNotInstalled, a.Name, err)
		}
		wrapper := filepath.Join(root, "pmns", "root_"+a.Name)
		text := fmt.Sprintf("root {\n\t%s\n}\n\n#define %s %d\n#include %q\n",
			a.Name, a.pmnsSymbol, a.Domain, src)
		if err := os.WriteFile(wrapper, []byte(text), 0o644); err != nil {
			return "", err
		}
		inputs = append(inputs, wrapper)
	}
	out := filepath.Join(root, "pmns", "root")
	if _, err := runHelper(in, nil, "pmnsmerge", append(inputs, out)...); err != nil {
		return "", err
	}
	return out, nil
}

// buildHelp turns an agent's help source into help.dir/help.pag under the
// bed's private PCP_PMDAS_DIR, substituting the domain number for its
// symbol as the PMDA Install scripts do.
func buildHelp(in *Install, root, pmns string, a Agent) error {
	src := in.expand(a.helpSource)
	text, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("%w: agent %s help: %v", ErrNotInstalled, a.Name, err)
	}
	from := []byte("@ " + a.helpSymbol + ".")
	to := []byte("@ " + strconv.Itoa(a.Domain) + ".")
	lines := bytes.Split(text, []byte("\n"))
	for i, l := range lines {
		if bytes.HasPrefix(l, from) {
			lines[i] = append(append([]byte{}, to...), l[len(from):]...)
		}
	}
	dir := filepath.Join(root, "pmdas", a.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	_, err = runHelper(in, bytes.Join(lines, []byte("\n")),
		"newhelp", "-n", pmns, "-v", "2", "-o", filepath.Join(dir, "help"))
	return err
}

// daemonArgv resolves a daemon agent's command line for this bed.
func daemonArgv(in *Install, root string, a Agent, port int) ([]string, error) {
	var argv []string
	if a.helpSource != "" {
		// The agent finds its help under PCP_PMDAS_DIR; point only this
		// agent at the private copy, leaving pmcd's own environment alone.
		env, err := exec.LookPath("env")
		if err != nil {
			return nil, err
		}
		argv = append(argv, env, "PCP_PMDAS_DIR="+filepath.Join(root, "pmdas"))
	}
	bin := in.expand(a.argv[0])
	if err := checkExec(bin); err != nil && !a.failing {
		return nil, fmt.Errorf("agent %s: %w", a.Name, err)
	}
	argv = append(argv, bin)
	for _, s := range a.argv[1:] {
		if s == PortArg {
			s = strconv.Itoa(port)
		}
		argv = append(argv, in.expand(s))
	}
	if a.logFlag != "" {
		argv = append(argv, a.logFlag, filepath.Join(root, "log", a.Name+".log"))
	}
	if a.ipc == ipcSocket {
		argv = append(argv, "-i", strconv.Itoa(port))
	}
	for _, s := range argv {
		// pmcd.conf splits commands on white space with no quoting.
		if s == "" || strings.ContainsAny(s, " \t\n") {
			return nil, fmt.Errorf("testbed: agent %s: argument %q cannot appear in pmcd.conf", a.Name, s)
		}
	}
	return argv, nil
}

// runHelper runs a PCP program to completion, returning its stdout or an
// error that carries its stderr.
func runHelper(in *Install, stdin []byte, tool string, args ...string) ([]byte, error) {
	path, err := in.Tool(tool)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("testbed: %s %s: %v: %s", tool, strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.Bytes(), nil
}
