package collector

import (
	"io"
	"strconv"
	"unicode/utf8"
)

// What a server sends ends up in text a person reads: `query`'s output, debug
// output, /logs, log lines. A control character there is an instruction to the
// terminal (ESC sequences retitle it, clear it; CR and LF forge lines) and a
// bidirectional override reorders what follows it on screen. Printable escapes
// them all, and invalid UTF-8, as \xNN (below U+0080) or \uNNNN, which Go, JSON
// and people read as the character it stands for.

// unsafeRune reports whether r must be escaped in text output: C0 controls but
// newline and tab escaped too (they forge lines and columns), DEL, C1
// controls, and the Unicode bidirectional controls.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // ALM, LRM, RLM, LRE..RLO, LRI..PDI
	}
	return false
}

// Printable returns s with the characters unsafeRune names (and invalid UTF-8)
// escaped; s itself when there are none.
func Printable(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return string(appendPrintable(make([]byte, 0, len(s)+8), s, false))
		}
	}
	return s
}

// appendPrintable appends s escaped; keepLines leaves newlines and tabs alone (for
// multi-line text the program wrote itself, with server strings inside).
func appendPrintable(dst []byte, s string, keepLines bool) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, `\x`...)
			dst = appendHex(dst, uint32(s[i]), 2)
		case keepLines && (r == '\n' || r == '\t'):
			dst = append(dst, byte(r))
		case r < 0x80 && unsafeRune(r):
			dst = append(dst, `\x`...)
			dst = appendHex(dst, uint32(r), 2)
		case unsafeRune(r):
			dst = append(dst, `\u`...)
			dst = appendHex(dst, uint32(r), 4)
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}

func appendHex(dst []byte, v uint32, digits int) []byte {
	h := strconv.FormatUint(uint64(v), 16)
	for range digits - len(h) {
		dst = append(dst, '0')
	}
	return append(dst, h...)
}

// PrintableWriter returns a writer that escapes what Printable escapes, newlines
// and tabs excepted, in everything written to w: for whole outputs (debug output,
// `query`'s report) in which server strings are embedded. A rune cut between two
// writes is escaped byte by byte.
func PrintableWriter(w io.Writer) io.Writer { return printableWriter{w} }

type printableWriter struct{ w io.Writer }

func (p printableWriter) Write(b []byte) (int, error) {
	clean := true
	for _, c := range b {
		if (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return p.w.Write(b)
	}
	if _, err := p.w.Write(appendPrintable(make([]byte, 0, len(b)+16), string(b), true)); err != nil {
		return 0, err
	}
	return len(b), nil
}
