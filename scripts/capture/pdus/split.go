package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// provenance closes every capture file's header.
const provenance = "pcp 6.0.3; captured by scripts/capture-golden.sh"

func splitCmd(args []string) error {
	fs := flag.NewFlagSet("split", flag.ContinueOnError)
	pcap := fs.String("pcap", "", "capture file to read")
	port := fs.Int("port", 0, "TCP port of the accepting side")
	name := fs.String("name", "", "base name of the output file(s)")
	out := fs.String("out", "pdu/testdata/captures", "output directory")
	want := fs.Int("want", 0, "fail unless exactly this many connections are found (0: at least one)")
	index := fs.Int("index", 0, "write only the index-th connection (from 1, in order of starting), as NAME.pdus")
	var comments multiFlag
	fs.Var(&comments, "comment", "header comment line (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *pcap == "" || *port == 0 || *name == "" || strings.ContainsAny(*name, "/ ") {
		return errors.New("split needs -pcap, -port and a plain -name")
	}
	segs, err := readSegments(*pcap)
	if err != nil {
		return err
	}
	conns, err := reassemble(segs, *port)
	if err != nil {
		return err
	}
	if len(conns) == 0 || (*want > 0 && len(conns) != *want) {
		return fmt.Errorf("%s: %d connections to port %d (want %d)", *pcap, len(conns), *port, *want)
	}
	if *index > 0 {
		if *index > len(conns) {
			return fmt.Errorf("%s: no connection %d of %d to port %d", *pcap, *index, len(conns), *port)
		}
		conns = conns[*index-1 : *index]
	}
	for i, c := range conns {
		file := *name
		if len(conns) > 1 {
			file = fmt.Sprintf("%s-%d", *name, i+1)
		}
		path := filepath.Join(*out, file+".pdus")
		if err := os.WriteFile(path, render(comments, c), 0o644); err != nil {
			return err
		}
		fmt.Printf("%s: %d PDUs\n", path, len(c.pdus))
	}
	return nil
}

// render writes a connection in the capture file format.
func render(comments []string, c conn) []byte {
	var b bytes.Buffer
	for _, com := range comments {
		for _, line := range strings.Split(com, "\n") {
			b.WriteString("# " + line + "\n")
		}
	}
	b.WriteString("# " + provenance + "\n")
	for _, p := range c.pdus {
		dir := "<"
		if p.fromClient {
			dir = ">"
		}
		b.WriteString(dir + " " + hex.EncodeToString(p.data) + "\n")
	}
	return b.Bytes()
}
