package idtech

import (
	"bytes"
	"math"
)

// MaxPlayerLines bounds the player lines parsed. The engines have at most 32
// (QuakeWorld), 64 (id Tech 3), 255 (DarkPlaces) or 256 (Quake II MAX_CLIENTS)
// client slots, so later lines are only counted in Lines.Dropped.
const MaxPlayerLines = 256

// Lines is the player part of a status reply, one player per line.
type Lines[P any] struct {
	Players  []P
	Unparsed int // non-empty lines the game's line parser rejected
	Dropped  int // non-empty lines past MaxPlayerLines, not parsed
}

// ParseLines reads one player per line with parse, the game's own layout.
// Blank lines are skipped; the last line counts even without its newline (a
// cut datagram). Players stays nil when b is empty.
func ParseLines[P any](b []byte, parse func(line []byte) (P, bool)) Lines[P] {
	var l Lines[P]
	if len(b) > 0 {
		l.Players = make([]P, 0, min(bytes.Count(b, []byte{'\n'})+1, MaxPlayerLines))
	}
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if len(l.Players)+l.Unparsed >= MaxPlayerLines {
			l.Dropped++
			continue
		}
		p, ok := parse(line)
		if !ok {
			l.Unparsed++
			continue
		}
		l.Players = append(l.Players, p)
	}
	return l
}

// SplitQuoted splits a player line at its first and its last double quote,
// the way id Tech 3 and DarkPlaces lines are read: some derivatives allow
// quotes inside names, so the name runs to the last one. ok is false without
// two quotes (a line cut inside the name).
func SplitQuoted(line []byte) (before, name, after []byte, ok bool) {
	q1 := bytes.IndexByte(line, '"')
	q2 := bytes.LastIndexByte(line, '"')
	if q1 < 0 || q1 == q2 {
		return nil, nil, nil, false
	}
	return line[:q1], line[q1+1 : q2], line[q2+1:], true
}

// Tokenize splits a status line the way the engine's COM_Parse reads it
// (QuakeWorld, Quake II): tokens are separated by blanks, and a double-quoted
// token (quotes removed) may hold blanks; an unterminated quote runs to the
// end of the line. At most max tokens are returned.
func Tokenize(line []byte, max int) [][]byte {
	var out [][]byte
	i := 0
	for len(out) < max {
		for i < len(line) && line[i] <= ' ' {
			i++
		}
		if i >= len(line) {
			break
		}
		if line[i] == '"' {
			j := bytes.IndexByte(line[i+1:], '"')
			if j < 0 {
				out = append(out, line[i+1:])
				break
			}
			out = append(out, line[i+1:i+1+j])
			i += j + 2
			continue
		}
		j := i
		for j < len(line) && line[j] > ' ' {
			j++
		}
		out = append(out, line[i:j])
		i = j
	}
	return out
}

// ParseInt parses a signed decimal integer, clamping overflow to the int64
// range instead of failing (broken servers print numbers past int32).
func ParseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var v int64
	over := false
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if d := int64(c - '0'); v > (math.MaxInt64-d)/10 {
			over = true
		} else if !over {
			v = v*10 + d
		}
	}
	switch {
	case over && neg:
		return math.MinInt64, true
	case over:
		return math.MaxInt64, true
	case neg:
		return -v, true
	}
	return v, true
}

// ParseIntQW is ParseInt with the clamp the QuakeWorld, Quake II and
// DarkPlaces decoders have always used: overflow is clamped to ±(2^63-1), so
// -2^63 itself reads as -(2^63-1). Their test vectors pin that.
func ParseIntQW(b []byte) (int64, bool) {
	v, ok := ParseInt(b)
	if v == math.MinInt64 {
		v = -math.MaxInt64
	}
	return v, ok
}
