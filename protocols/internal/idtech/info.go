package idtech

import (
	"bytes"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// MaxInfoPairs bounds the info pairs kept: a serverinfo string holds at most
// 512 bytes in qwsv (MAX_SERVERINFO_STRING) and 1024 in mvdsv, Quake II, FTE
// and id Tech 3 (MAX_INFO_STRING, at most 256 non-empty pairs), so a reply with
// more pairs is lying or broken.
const MaxInfoPairs = 512

// Info is a decoded `\key\value\key\value` string.
type Info struct {
	// Pairs in wire order, decoded with ParseInfo's text and colour codes kept
	// (raw, for debug output). Of duplicate keys only the first is kept, as the
	// engine's Info_ValueForKey finds it.
	Pairs        []protocols.KV
	PairsDropped int // pairs past MaxInfoPairs, duplicates not counted
	raw          [][2][]byte
	fold         bool
	text         func([]byte) string
}

// Fold says how an engine compares info keys: id Tech 3 (and DarkPlaces)
// ignore ASCII case, QuakeWorld and Quake II compare bytes.
type Fold bool

// Key comparisons.
const (
	CaseSensitive   Fold = false
	CaseInsensitive Fold = true
)

// ParseInfo splits an info string and decodes its keys and values with text:
// wire.Latin1 for the engines' own bytes, or the code page a module's
// `encoding:` names (quake3). Bytes before the first backslash are junk qstat
// tolerates; a cut string (odd token count) leaves the last key with an empty
// value. ok is false when the line holds no backslash at all.
func ParseInfo(line []byte, fold Fold, text func([]byte) string) (info Info, ok bool) {
	i := bytes.IndexByte(line, '\\')
	if i < 0 {
		return Info{}, false
	}
	s := line[i+1:]
	n := min(bytes.Count(s, []byte{'\\'})/2+1, MaxInfoPairs)
	info.fold, info.text = bool(fold), text
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
		if in.sameKey(kv[0], k) {
			return
		}
	}
	if len(in.raw) >= MaxInfoPairs {
		in.PairsDropped++
		return
	}
	in.raw = append(in.raw, [2][]byte{k, v})
	in.Pairs = append(in.Pairs, protocols.KV{Key: in.text(k), Value: in.text(v)})
}

func (in *Info) sameKey(a, b []byte) bool {
	if in.fold {
		return asciiEqualFold(a, b)
	}
	return bytes.Equal(a, b)
}

// Raw returns the raw bytes of the value of the first key found, trying keys
// in order.
func (in *Info) Raw(keys ...string) ([]byte, bool) {
	for _, k := range keys {
		for _, kv := range in.raw {
			if in.sameKey(kv[0], []byte(k)) {
				return kv[1], true
			}
		}
	}
	return nil, false
}

// Lookup is Raw decoded with ParseInfo's text.
func (in *Info) Lookup(keys ...string) (string, bool) {
	v, ok := in.Raw(keys...)
	if !ok {
		return "", false // also for the zero Info, which has no text
	}
	return in.text(v), true
}

// Text returns the value of the first key found in readable ASCII (the Quake
// character set, see Readable).
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

// NeedPass reads `needpass`, the password bits the Quake II and QuakeWorld
// servers keep in their serverinfo (bit 1: player password, bit 2: spectator
// password): absent when the key is missing, unknown when it is no number.
func (in *Info) NeedPass(absent protocols.Flag) protocols.Flag {
	v, ok := in.Raw("needpass")
	if !ok {
		return absent
	}
	if n, ok := ParseIntQW(bytes.TrimSpace(v)); ok {
		return protocols.FlagOf(n&1 != 0)
	}
	return protocols.FlagUnknown
}

// asciiEqualFold compares a and b ignoring ASCII case only, as the engines'
// Q_stricmp does (no Unicode folding: keys are bytes).
func asciiEqualFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
