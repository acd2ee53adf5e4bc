package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// tsharkFields are the per-frame fields read from a capture. Raw sequence
// numbers keep reassembly independent of tshark's relative-numbering
// preferences.
var tsharkFields = []string{
	"frame.number", "tcp.stream", "tcp.srcport", "tcp.dstport",
	"tcp.flags.syn", "tcp.flags.ack", "tcp.seq_raw", "tcp.payload",
}

// readSegments lists the TCP segments of a capture file using tshark.
func readSegments(pcap string) ([]segment, error) {
	args := []string{"-r", pcap, "-Y", "tcp", "-T", "fields", "-E", "separator=/t"}
	for _, f := range tsharkFields {
		args = append(args, "-e", f)
	}
	cmd := exec.Command("tshark", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("tshark %s: %v: %s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return parseSegments(out)
}

// parseSegments parses tshark's tab-separated field output.
func parseSegments(out []byte) ([]segment, error) {
	var segs []segment
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for line := 1; sc.Scan(); line++ {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != len(tsharkFields) {
			return nil, fmt.Errorf("tshark line %d: %d fields, want %d", line, len(f), len(tsharkFields))
		}
		var s segment
		var err error
		ints := []*int{&s.frame, &s.stream, &s.src, &s.dst}
		for i, p := range ints {
			if *p, err = strconv.Atoi(f[i]); err != nil {
				return nil, fmt.Errorf("tshark line %d: %s: %v", line, tsharkFields[i], err)
			}
		}
		s.syn, s.ack = tsharkBool(f[4]), tsharkBool(f[5])
		seq, err := strconv.ParseUint(f[6], 10, 32)
		if err != nil {
			return nil, fmt.Errorf("tshark line %d: tcp.seq_raw: %v", line, err)
		}
		s.seq = uint32(seq)
		if s.payload, err = hex.DecodeString(strings.ReplaceAll(f[7], ":", "")); err != nil {
			return nil, fmt.Errorf("tshark line %d: tcp.payload: %v", line, err)
		}
		segs = append(segs, s)
	}
	return segs, sc.Err()
}

// tsharkBool reads a tshark boolean, which versions print as 1/0 or True/False.
func tsharkBool(s string) bool {
	return s == "1" || strings.EqualFold(s, "true")
}
