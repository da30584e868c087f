package quakeworld

import (
	"bytes"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// MaxInfoPairs bounds the info pairs kept: a serverinfo string holds at most
// 512 bytes in qwsv (MAX_SERVERINFO_STRING) and 1024 in mvdsv, Quake 2 and FTE,
// so a reply with more pairs is lying or broken.
const MaxInfoPairs = 512

// Info is a decoded `\key\value\key\value` string.
type Info struct {
	// Pairs in wire order, Latin-1 decoded (raw, for debug output). Of
	// duplicate keys only the first is kept, as the engine's Info_ValueForKey
	// finds it (keys compare case-sensitively in QuakeWorld and Quake 2).
	Pairs        []protocols.KV
	PairsDropped int // pairs past MaxInfoPairs, duplicates not counted
	raw          [][2][]byte
}

// ParseInfo splits an info string. Bytes before the first backslash are junk
// qstat tolerates; a cut string (odd token count) leaves the last key with an
// empty value. ok is false when the line holds no backslash at all.
func ParseInfo(line []byte) (info Info, ok bool) {
	i := bytes.IndexByte(line, '\\')
	if i < 0 {
		return Info{}, false
	}
	s := line[i+1:]
	n := min(bytes.Count(s, []byte{'\\'})/2+1, MaxInfoPairs)
	info.Pairs = make([]protocols.KV, 0, n)
	info.raw = make([][2][]byte, 0, n)
	for {
		k, rest, more := bytes.Cut(s, []byte{'\\'})
		var v []byte
		if more {
			v, s, more = bytes.Cut(rest, []byte{'\\'})
		}
		info.add(k, v)
		if !more {
			return info, true
		}
	}
}

func (in *Info) add(k, v []byte) {
	if len(k) == 0 && len(v) == 0 {
		return // a trailing or doubled backslash
	}
	for _, kv := range in.raw {
		if bytes.Equal(kv[0], k) {
			return
		}
	}
	if len(in.raw) >= MaxInfoPairs {
		in.PairsDropped++
		return
	}
	in.raw = append(in.raw, [2][]byte{k, v})
	in.Pairs = append(in.Pairs, protocols.KV{Key: wire.Latin1(k), Value: wire.Latin1(v)})
}

// Raw returns the raw bytes of the first key equal to one of keys.
func (in *Info) Raw(keys ...string) ([]byte, bool) {
	for _, k := range keys {
		for _, kv := range in.raw {
			if string(kv[0]) == k {
				return kv[1], true
			}
		}
	}
	return nil, false
}

// Text returns the value of the first key found, in readable ASCII.
func (in *Info) Text(keys ...string) string {
	v, _ := in.Raw(keys...)
	return Readable(v)
}

// Count parses the first key found as a non-negative count; anything else is
// "not reported".
func (in *Info) Count(keys ...string) protocols.Count {
	v, ok := in.Raw(keys...)
	if !ok {
		return protocols.Count{}
	}
	n, ok := ParseInt(bytes.TrimSpace(v))
	if !ok || n < 0 {
		return protocols.Count{}
	}
	return protocols.Known(n)
}

// Tokenize splits a status line the way the engine's COM_Parse reads it:
// tokens are separated by blanks, and a double-quoted token (quotes removed)
// may hold blanks; an unterminated quote runs to the end of the line. At most
// max tokens are returned.
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

// ParseInt parses a signed decimal integer, clamping overflow to ±2^63-1
// instead of failing (broken servers print numbers past int32).
func ParseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	const limit = 1<<63 - 1
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if d := int64(c - '0'); v > (limit-d)/10 {
			v = limit // sticks: limit*10 overflows the test above again
		} else {
			v = v*10 + d
		}
	}
	if neg {
		return -v, true
	}
	return v, true
}
