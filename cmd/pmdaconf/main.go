// Command pmdaconf installs an agent into a running pmcd and removes it
// again, as the Install and Remove scripts of PCP's agents do (the
// guide's "Integration of a PMDA"): it adds the agent's line to
// pmcd.conf, its names to the namespace, and sends pmcd SIGHUP, then
// waits until pmcd serves the agent's names (or no longer does). It works
// the same for PCP's pmcd and gopcp's.
//
//	pmdaconf install [options] NAME DOMAIN TYPE ARGS...
//	pmdaconf remove [options] NAME
//
// TYPE ARGS is the rest of the pmcd.conf line: "pipe binary /path/pmdaNAME
// -d DOMAIN", "socket inet PORT [command]", "dso ENTRY PATH". The agent's
// names come from -s, a namespace fragment as PCP's agents ship it (the
// symbolic domain, by default NAME in capitals, replaced by DOMAIN), or
// without -s from the agent itself ("NAME DOMAIN:*:*").
//
// Options: -c pmcd.conf ($PCP_PMCDCONF_PATH), -n namespace root
// ($PCP_VAR_DIR/pmns/root), -S SYMBOL, -P pmcd's process id or -p its pid
// file ($PCP_RUN_DIR/pmcd.pid), -h host:port to check pmcd's answers
// (local:), -t seconds to wait (10), -N to change the files only.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	conf, root, pmnsFile, symbol, pidFile, host string
	pid                                         int
	wait                                        time.Duration
	noSignal                                    bool
}

func confVar(name, def string) string {
	if v, ok := pcpconf.Get(name); ok && v != "" {
		return v
	}
	return def
}

func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: pmdaconf install [options] NAME DOMAIN TYPE ARGS...\n       pmdaconf remove [options] NAME\n\nOptions:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func run(args []string, stdout, stderr io.Writer) int {
	o := options{}
	fs := flag.NewFlagSet("pmdaconf", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.conf, "c", confVar("PCP_PMCDCONF_PATH", "/etc/pcp/pmcd/pmcd.conf"), "pmcd's configuration `file`")
	fs.StringVar(&o.root, "n", filepath.Join(confVar("PCP_VAR_DIR", "/var/lib/pcp"), "pmns", "root"), "the namespace `file` pmcd loads")
	fs.StringVar(&o.pmnsFile, "s", "", "the agent's namespace fragment `file` (default: names served by the agent)")
	fs.StringVar(&o.symbol, "S", "", "the symbolic domain in the fragment (default NAME in capitals)")
	fs.IntVar(&o.pid, "P", 0, "pmcd's process `id`")
	fs.StringVar(&o.pidFile, "p", filepath.Join(confVar("PCP_RUN_DIR", "/run/pcp"), "pmcd.pid"), "pmcd's pid `file`")
	fs.StringVar(&o.host, "h", "local:", "pmcd to check, as a host `spec`")
	fs.DurationVar(&o.wait, "t", 10*time.Second, "how long to wait for pmcd")
	fs.BoolVar(&o.noSignal, "N", false, "change the files only: no signal, no check")
	if len(args) == 0 {
		usage(stderr, fs)
		return 1
	}
	verb := args[0]
	if err := fs.Parse(args[1:]); err != nil {
		fmt.Fprintf(stderr, "pmdaconf: %v\n", err)
		usage(stderr, fs)
		return 1
	}
	rest := fs.Args()
	var err error
	switch {
	case verb == "install" && len(rest) >= 3:
		err = install(o, rest[0], rest[1], rest[2:], stdout)
	case verb == "remove" && len(rest) == 1:
		err = remove(o, rest[0], stdout)
	default:
		usage(stderr, fs)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "pmdaconf: %v\n", err)
		return 1
	}
	return 0
}

// install adds the agent to pmcd.conf and the namespace, then has pmcd
// pick it up.
func install(o options, name, domainArg string, line []string, out io.Writer) error {
	domain, err := strconv.Atoi(domainArg)
	if err != nil || domain <= 0 || domain >= 511 {
		return fmt.Errorf("bad domain %q", domainArg)
	}
	ns, err := loadNamespace(o.root)
	if err != nil {
		return fmt.Errorf("namespace %s: %w", o.root, err)
	}
	var frag *namespace
	if o.pmnsFile != "" {
		src, err := os.ReadFile(o.pmnsFile)
		if err != nil {
			return err
		}
		sym := o.symbol
		if sym == "" {
			sym = strings.ToUpper(name)
		}
		if frag, err = subtree(src, sym, domain); err != nil {
			return fmt.Errorf("%s: %w", o.pmnsFile, err)
		}
	}
	if err := ns.add(name, frag, domain); err != nil {
		return fmt.Errorf("adding %s to the namespace: %w", name, err)
	}
	conf, err := os.ReadFile(o.conf)
	if err != nil {
		return err
	}
	entry := name + "\t" + domainArg + "\t" + strings.Join(line, " ")
	newConf, warnings, _ := confEdit(conf, o.conf, name, domainArg, entry)
	for _, w := range warnings {
		fmt.Fprintln(out, w)
	}
	fmt.Fprintf(out, "Updating the Performance Metrics Name Space (PMNS) ...\n")
	if err := replaceFile(o.root, ns.text()); err != nil {
		return err
	}
	fmt.Fprintf(out, "Installing pmcd.conf entry: %s\n", entry)
	if err := replaceFile(o.conf, newConf); err != nil {
		return err
	}
	if o.noSignal {
		return nil
	}
	if err := signalPMCD(o); err != nil {
		return err
	}
	// Picked up once pmcd's namespace has the agent's names and a
	// descriptor of one of them comes from the agent.
	return waitFor(o, func(ctx context.Context, c *pmapi.HostContext) bool {
		kids, err := c.Children(ctx, name)
		if err != nil || len(kids) == 0 {
			return false
		}
		names, err := traverse(ctx, c, name)
		if err != nil || len(names) == 0 {
			return false
		}
		id, err := c.LookupName(ctx, names[0])
		if err != nil {
			return false
		}
		_, err = c.LookupDesc(ctx, id)
		if err == nil {
			fmt.Fprintf(out, "Check %s metrics have appeared ... %d metrics\n", name, len(names))
		}
		return err == nil
	})
}

// remove takes the agent out of the namespace and pmcd.conf, then has
// pmcd drop it.
func remove(o options, name string, out io.Writer) error {
	ns, err := loadNamespace(o.root)
	if err != nil {
		return fmt.Errorf("namespace %s: %w", o.root, err)
	}
	conf, err := os.ReadFile(o.conf)
	if err != nil {
		return err
	}
	var newConf []byte
	inConf := false
	if domain, ok := confDomain(conf, name); ok {
		var warnings []string
		newConf, warnings, inConf = confCull(conf, o.conf, name, domain)
		for _, w := range warnings {
			fmt.Fprintln(out, w)
		}
	}
	inNS := ns.remove(name)
	if !inConf && !inNS {
		return fmt.Errorf("%s is not installed (neither in %s nor in %s)", name, o.conf, o.root)
	}
	fmt.Fprintf(out, "Culling the Performance Metrics Name Space (PMNS) ...\n")
	if inNS {
		if err := replaceFile(o.root, ns.text()); err != nil {
			return err
		}
	}
	if inConf {
		fmt.Fprintf(out, "Removing %s from pmcd.conf\n", name)
		if err := replaceFile(o.conf, newConf); err != nil {
			return err
		}
	}
	if o.noSignal {
		return nil
	}
	if err := signalPMCD(o); err != nil {
		return err
	}
	return waitFor(o, func(ctx context.Context, c *pmapi.HostContext) bool {
		_, err := c.Children(ctx, name)
		if errors.Is(err, pcp.ErrName) {
			fmt.Fprintf(out, "Check %s metrics have gone away ... OK\n", name)
			return true
		}
		return false
	})
}

// traverse lists the leaves below name through pmcd.
func traverse(ctx context.Context, c *pmapi.HostContext, name string) ([]string, error) {
	var out []string
	kids, err := c.ChildrenStatus(ctx, name)
	if err != nil {
		return nil, err
	}
	for _, k := range kids {
		full := name + "." + k.Name
		if k.Leaf {
			out = append(out, full)
			continue
		}
		sub, err := traverse(ctx, c, full)
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
	}
	return out, nil
}

// replaceFile writes data beside path and renames it over path, keeping
// the old file as path.prev, as PCP's scripts keep pmcd.conf.prev.
func replaceFile(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
		if old, err := os.ReadFile(path); err == nil {
			os.WriteFile(path+".prev", old, mode)
		}
	}
	tmp := path + ".new"
	if err := os.WriteFile(tmp, data, mode); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// signalPMCD sends pmcd SIGHUP.
func signalPMCD(o options) error {
	pid := o.pid
	if pid == 0 {
		b, err := os.ReadFile(o.pidFile)
		if err != nil {
			return fmt.Errorf("cannot find pmcd's process: %w (give -P)", err)
		}
		if pid, err = strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
			return fmt.Errorf("%s: bad process id", o.pidFile)
		}
	}
	if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
		return fmt.Errorf("signalling pmcd (pid %d): %w", pid, err)
	}
	return nil
}

// waitFor asks pmcd, on a fresh connection each time, until done says
// the change has taken or the wait is over.
func waitFor(o options, done func(context.Context, *pmapi.HostContext) bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), o.wait)
	defer cancel()
	delay := 10 * time.Millisecond
	for {
		if c, err := pmapi.NewHostContext(ctx, o.host, cli.HostEnv()...); err == nil {
			ok := done(ctx, c)
			c.Close()
			if ok {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("pmcd on %s did not pick up the change within %v", o.host, o.wait)
		case <-time.After(delay):
		}
		delay = min(2*delay, 500*time.Millisecond)
	}
}
