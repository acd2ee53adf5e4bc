package testbed

import (
	"fmt"
	"strconv"
	"strings"
)

// ipcKind is how pmcd talks to an agent, as spelt in pmcd.conf.
type ipcKind int

const (
	ipcDSO    ipcKind = iota // loaded into pmcd
	ipcPipe                  // child daemon on a pipe
	ipcSocket                // child daemon pmcd connects to over TCP
)

// Agent is one PMDA for a test bed's pmcd.conf. Build it with one of the
// constructors below; paths may refer to pcp.conf variables such as
// $PCP_PMDAS_DIR and are resolved when the test bed starts.
type Agent struct {
	// Name is the agent's label in pmcd.conf and in pmcd.agent.* metrics.
	Name string
	// Domain is the agent's PMID domain number.
	Domain int

	ipc ipcKind
	// lib and entry name a DSO agent's shared object and init function.
	lib, entry string
	// failing marks an agent expected not to start (Failing).
	failing bool
	// argv is a daemon agent's command line; for a socket agent the test
	// bed appends "-i PORT".
	argv []string
	// logFlag, when set, is the daemon's option that names its log file,
	// so logs land in the test bed's directory.
	logFlag string

	// pmnsRoot is a PMNS file that already has its own root node.
	pmnsRoot string
	// pmnsSubtree is a PMNS file without a root node whose domain is the
	// cpp symbol pmnsSymbol; the test bed wraps it in a root naming Name.
	pmnsSubtree, pmnsSymbol string

	// helpSource is help text in newhelp(1) form that PCP ships unbuilt;
	// its "@ SYMBOL." lines use helpSymbol for the domain. The test bed
	// builds it into a private PCP_PMDAS_DIR for this agent.
	helpSource, helpSymbol string
}

// PMCDAgent is pmcd's own DSO agent (domain 2), which serves pmcd.*.
func PMCDAgent() Agent {
	return Agent{
		Name:     "pmcd",
		Domain:   2,
		ipc:      ipcDSO,
		lib:      "$PCP_PMDAS_DIR/pmcd/pmda_pmcd.so",
		entry:    "pmcd_init",
		pmnsRoot: "$PCP_VAR_DIR/pmns/root_pmcd",
	}
}

// SampleAgent is PCP's sample PMDA (domain 29) as a pipe daemon, the
// usual way pmcd runs it.
func SampleAgent() Agent {
	return Agent{
		Name:        "sample",
		Domain:      29,
		ipc:         ipcPipe,
		argv:        []string{"$PCP_PMDAS_DIR/sample/pmdasample", "-d", "29"},
		logFlag:     "-l",
		pmnsSubtree: "$PCP_PMDAS_DIR/sample/pmns",
		pmnsSymbol:  "SAMPLE",
		helpSource:  "$PCP_PMDAS_DIR/sample/help",
		helpSymbol:  "SAMPLE",
	}
}

// SampleSocketAgent is the sample PMDA reached over a TCP socket on a
// private port, so that pmcd-to-agent traffic can be captured on loopback.
// PMCD.AgentPort reports the port.
func SampleSocketAgent() Agent {
	a := SampleAgent()
	a.ipc = ipcSocket
	return a
}

// LinuxAgent is the Linux kernel PMDA (domain 60) as a pipe daemon.
func LinuxAgent() Agent {
	return Agent{
		Name:     "linux",
		Domain:   60,
		ipc:      ipcPipe,
		argv:     []string{"$PCP_PMDAS_DIR/linux/pmdalinux", "-d", "60"},
		logFlag:  "-l",
		pmnsRoot: "$PCP_VAR_DIR/pmns/root_linux",
	}
}

// DSOAgent describes any DSO agent; pmnsRoot is its PMNS with a root node.
func DSOAgent(name string, domain int, lib, entry, pmnsRoot string) Agent {
	return Agent{Name: name, Domain: domain, ipc: ipcDSO, lib: lib, entry: entry, pmnsRoot: pmnsRoot}
}

// PortArg, as an argument of a pipe agent, is replaced by a port the bed
// reserves for the agent to listen on itself (pmdatrace's -I): the bed
// holds it until it is closed, and a start that fails because another
// process took it meanwhile starts again on a new one. AgentPort gives it.
const PortArg = "@PORT@"

// PipeAgent describes any pipe daemon agent; pmnsRoot is its PMNS with a
// root node and argv its command line.
func PipeAgent(name string, domain int, pmnsRoot string, argv ...string) Agent {
	return Agent{Name: name, Domain: domain, ipc: ipcPipe, argv: argv, pmnsRoot: pmnsRoot}
}

// Failing marks an agent the test expects not to start (its program
// cannot run, or ends at once): pmcd is ready without it, and its
// program need not exist.
func (a Agent) Failing() Agent {
	a.failing = true
	return a
}

// validate rejects agents pmcd would refuse, before any process starts.
func (a Agent) validate() error {
	if a.Name == "" || strings.ContainsAny(a.Name, " \t\n#") {
		return fmt.Errorf("testbed: bad agent name %q", a.Name)
	}
	// Domain numbers are 9 bits in a PMID; 0 and 511 are reserved.
	if a.Domain <= 0 || a.Domain >= 511 {
		return fmt.Errorf("testbed: agent %s: bad domain %d", a.Name, a.Domain)
	}
	switch a.ipc {
	case ipcDSO:
		if a.lib == "" || a.entry == "" {
			return fmt.Errorf("testbed: agent %s: DSO needs a library and entry point", a.Name)
		}
	case ipcPipe, ipcSocket:
		if len(a.argv) == 0 {
			return fmt.Errorf("testbed: agent %s: daemon needs a command", a.Name)
		}
	default:
		return fmt.Errorf("testbed: agent %s: unknown IPC kind", a.Name)
	}
	if a.pmnsRoot == "" && a.pmnsSubtree == "" {
		return fmt.Errorf("testbed: agent %s: no PMNS", a.Name)
	}
	return nil
}

// confLine renders the agent's pmcd.conf line. argv is the resolved
// daemon command (ignored for DSOs) and port the socket agent's port.
func (a Agent) confLine(lib string, argv []string, port int) string {
	head := a.Name + "\t" + strconv.Itoa(a.Domain) + "\t"
	switch a.ipc {
	case ipcDSO:
		return head + "dso\t" + a.entry + "\t" + lib
	case ipcSocket:
		return head + "socket\tinet " + strconv.Itoa(port) + "\t" + strings.Join(argv, " ")
	default:
		return head + "pipe\tbinary\t" + strings.Join(argv, " ")
	}
}
