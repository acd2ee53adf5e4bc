package httpd

import "encoding/binary"

// sniffLen is how much of a body is looked at for its type.
const sniffLen = 512

// signature is a body's first bytes that name its type: data matches
// when each byte, masked, equals pat's (mask "" is all ones); ws skips
// leading white space first.
type signature struct {
	pat, mask string
	ws        bool
	ct        string
}

// htmlTags begin an HTML document (matched without regard to case, and
// followed by a space or '>').
var htmlTags = []string{"<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME", "<H1", "<DIV",
	"<FONT", "<TABLE", "<A", "<STYLE", "<TITLE", "<B", "<BODY", "<BR", "<P", "<!--"}

// signatures are the WHATWG MIME Sniffing standard's patterns in the
// order net/http tries them; before them come htmlTags, between the
// video and font ones mp4, and after them all the test for text.
var signatures = []signature{
	{pat: "<?xml", ws: true, ct: "text/xml; charset=utf-8"},
	{pat: "%PDF-", ct: "application/pdf"},
	{pat: "%!PS-Adobe-", ct: "application/postscript"},
	{pat: "\xFE\xFF\x00\x00", mask: "\xFF\xFF\x00\x00", ct: "text/plain; charset=utf-16be"},
	{pat: "\xFF\xFE\x00\x00", mask: "\xFF\xFF\x00\x00", ct: "text/plain; charset=utf-16le"},
	{pat: "\xEF\xBB\xBF\x00", mask: "\xFF\xFF\xFF\x00", ct: "text/plain; charset=utf-8"},
	{pat: "\x00\x00\x01\x00", ct: "image/x-icon"},
	{pat: "\x00\x00\x02\x00", ct: "image/x-icon"},
	{pat: "BM", ct: "image/bmp"},
	{pat: "GIF87a", ct: "image/gif"},
	{pat: "GIF89a", ct: "image/gif"},
	{pat: "RIFF\x00\x00\x00\x00WEBPVP", mask: "\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF\xFF\xFF", ct: "image/webp"},
	{pat: "\x89PNG\x0D\x0A\x1A\x0A", ct: "image/png"},
	{pat: "\xFF\xD8\xFF", ct: "image/jpeg"},
	{pat: "FORM\x00\x00\x00\x00AIFF", mask: "\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF", ct: "audio/aiff"},
	{pat: "ID3", ct: "audio/mpeg"},
	{pat: "OggS\x00", ct: "application/ogg"},
	{pat: "MThd\x00\x00\x00\x06", ct: "audio/midi"},
	{pat: "RIFF\x00\x00\x00\x00AVI ", mask: "\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF", ct: "video/avi"},
	{pat: "RIFF\x00\x00\x00\x00WAVE", mask: "\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF", ct: "audio/wave"},
	{ct: "video/mp4"}, // mp4's box, by its own test
	{pat: "\x1A\x45\xDF\xA3", ct: "video/webm"},
	{pat: "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00LP",
		mask: "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xFF\xFF",
		ct:   "application/vnd.ms-fontobject"},
	{pat: "\x00\x01\x00\x00", ct: "font/ttf"},
	{pat: "OTTO", ct: "font/otf"},
	{pat: "ttcf", ct: "font/collection"},
	{pat: "wOFF", ct: "font/woff"},
	{pat: "wOF2", ct: "font/woff2"},
	{pat: "\x1F\x8B\x08", ct: "application/x-gzip"},
	{pat: "PK\x03\x04", ct: "application/zip"},
	{pat: "Rar!\x1A\x07\x00", ct: "application/x-rar-compressed"},
	{pat: "Rar!\x1A\x07\x01\x00", ct: "application/x-rar-compressed"},
	{pat: "\x00\x61\x73\x6D", ct: "application/wasm"},
}

// DetectContentType names the type of a body from its first 512 bytes
// as net/http's DetectContentType does (the WHATWG MIME Sniffing
// standard): "application/octet-stream" when nothing matches.
func DetectContentType(data []byte) string {
	data = data[:min(len(data), sniffLen)]
	ws := 0
	for ws < len(data) && isSniffWS(data[ws]) {
		ws++
	}
	for _, tag := range htmlTags {
		if htmlTag(data[ws:], tag) {
			return "text/html; charset=utf-8"
		}
	}
	for i := range signatures {
		s := &signatures[i]
		if s.pat == "" {
			if isMP4(data) {
				return s.ct
			}
			continue
		}
		d := data
		if s.ws {
			d = d[ws:]
		}
		if s.matches(d) {
			return s.ct
		}
	}
	for _, b := range data[ws:] {
		if b <= 0x08 || b == 0x0B || 0x0E <= b && b <= 0x1A || 0x1C <= b && b <= 0x1F {
			return "application/octet-stream"
		}
	}
	return "text/plain; charset=utf-8"
}

func isSniffWS(b byte) bool {
	return b == '\t' || b == '\n' || b == '\x0c' || b == '\r' || b == ' '
}

func (s *signature) matches(d []byte) bool {
	if len(d) < len(s.pat) {
		return false
	}
	for i := 0; i < len(s.pat); i++ {
		b := d[i]
		if s.mask != "" {
			b &= s.mask[i]
		}
		if b != s.pat[i] {
			return false
		}
	}
	return true
}

// htmlTag: d begins with tag (its letters in either case) and a space
// or '>'.
func htmlTag(d []byte, tag string) bool {
	if len(d) < len(tag)+1 {
		return false
	}
	for i := 0; i < len(tag); i++ {
		b := d[i]
		if 'A' <= tag[i] && tag[i] <= 'Z' {
			b &= 0xDF
		}
		if b != tag[i] {
			return false
		}
	}
	return d[len(tag)] == ' ' || d[len(tag)] == '>'
}

// isMP4: an ISO media file's first box is "ftyp" with "mp4" among its
// brands (the major one or a compatible one).
func isMP4(d []byte) bool {
	if len(d) < 12 {
		return false
	}
	size := int(binary.BigEndian.Uint32(d[:4]))
	if len(d) < size || size%4 != 0 || string(d[4:8]) != "ftyp" {
		return false
	}
	for at := 8; at < size; at += 4 {
		if at != 12 && string(d[at:at+3]) == "mp4" {
			return true
		}
	}
	return false
}
