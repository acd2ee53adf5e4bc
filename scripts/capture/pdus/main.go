// Command pdus turns tshark captures of PCP traffic into the golden PDU
// files under pdu/testdata/captures, and indexes those files.
//
//	pdus split -pcap F -port N -name NAME [-want N] [-index K] [-comment TEXT]... [-out DIR]
//	pdus readme [-dir DIR] [-note TYPE=TEXT]...
//
// split reassembles every TCP connection in the capture whose accepting
// side uses port N and writes it as DIR/NAME.pdus (NAME-1.pdus, NAME-2.pdus
// ... when there are several): comment lines, then one line per whole PDU,
// "> " for PDUs from the connecting side and "< " for the accepting side,
// in lowercase hex. -index K keeps only the K-th connection in order of
// starting, for captures where two clients talk to one server. readme writes DIR/README.md, listing the PDU types in
// each file and which files hold each type.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "split":
		err = splitCmd(os.Args[2:])
	case "readme":
		err = readmeCmd(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pdus:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: pdus split -pcap F -port N -name NAME [-want N] [-index K] [-comment TEXT]... [-out DIR]")
	fmt.Fprintln(os.Stderr, "       pdus readme [-dir DIR] [-note TYPE=TEXT]...")
	os.Exit(2)
}

// multiFlag collects a repeated string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
