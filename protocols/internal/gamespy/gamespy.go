// Package gamespy holds what the GameSpy protocol packages (gamespy1 to gamespy4)
// share: reading the key/value pairs every dialect sends (counts, flags, repeated
// keys), the QR2 challenge handshake of gamespy3 and gamespy4, and the small pieces
// of their queriers that are the same (attempt slots, idle waits, partial results).
// Each dialect keeps its own framing and quirks.
package gamespy

import (
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Pair is one key/value of a reply; Value holds the bytes as sent until the result
// is built.
type Pair struct {
	Key   string
	Value []byte
}

// Lookup returns the last value of key, compared case-insensitively: games
// disagree on case, and a later packet or a repeat wins.
func Lookup(pairs []Pair, key string) ([]byte, bool) {
	for i := len(pairs) - 1; i >= 0; i-- {
		if strings.EqualFold(pairs[i].Key, key) {
			return pairs[i].Value, true
		}
	}
	return nil, false
}

// First returns conv of the value of the first key in keys that has a non-empty
// value, "" when none has.
func First(pairs []Pair, conv func([]byte) string, keys ...string) string {
	for _, k := range keys {
		if v, ok := Lookup(pairs, k); ok && len(v) > 0 {
			return conv(v)
		}
	}
	return ""
}

// ParseCount parses a decimal leniently (surrounding spaces, a leading +); anything
// else is an unknown count rather than an error.
func ParseCount(v []byte) protocols.Count {
	s := strings.TrimPrefix(strings.TrimSpace(string(v)), "+")
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return protocols.Count{}
	}
	return protocols.Known(n)
}

// ParseFlag reads the boolean spellings the GameSpy games use.
func ParseFlag(v []byte) protocols.Flag {
	switch strings.ToLower(strings.TrimSpace(string(v))) {
	case "1", "true", "yes", "on":
		return protocols.FlagTrue
	case "0", "false", "no", "off":
		return protocols.FlagFalse
	}
	return protocols.FlagUnknown
}

// SetCounts fills Players, MaxPlayers and Password from the numplayers, maxplayers
// and password keys, each only when sent.
func SetCounts(res *protocols.Result, pairs []Pair) {
	if v, ok := Lookup(pairs, "numplayers"); ok {
		res.Players = ParseCount(v)
	}
	if v, ok := Lookup(pairs, "maxplayers"); ok {
		res.MaxPlayers = ParseCount(v)
	}
	if v, ok := Lookup(pairs, "password"); ok {
		res.Password = ParseFlag(v)
	}
}

// AppendInfo appends the pairs to out as valid UTF-8, leaving out those whose key
// skip matches (skip may be nil). A repeated key keeps its first place and its last
// value (BF1942 repeats some).
func AppendInfo(out []protocols.KV, pairs []Pair, skip func(string) bool) []protocols.KV {
	seen := make(map[string]int, len(pairs))
	for _, p := range pairs {
		if skip != nil && skip(p.Key) {
			continue
		}
		kv := protocols.KV{Key: wire.UTF8([]byte(p.Key)), Value: wire.UTF8(p.Value)}
		if i, ok := seen[p.Key]; ok {
			out[i] = kv
			continue
		}
		seen[p.Key] = len(out)
		out = append(out, kv)
	}
	return out
}

// Nothing reports a result with none of the fields that make a reply worth
// reporting: a reply cut before them is an error, not a partial result.
func Nothing(res *protocols.Result) bool {
	return res.Name == "" && res.Map == "" && !res.Players.Known && !res.MaxPlayers.Known
}

// Partial records err, which cut the reply short, against the players and rules
// phases the module asked for: the info came through, what follows may not have.
// Not a protocols.Phase: a cut in the one reply, no request of their own.
func Partial(res *protocols.Result, err error, players, rules bool) {
	if players {
		res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: err})
	}
	if rules {
		res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "rules", Err: err})
	}
}

// Recode reads the pairs' keys and values with text, in place: a module's
// `encoding:` (windows-1251 for a Cyrillic server) names the code page, and the
// decoders, which take valid UTF-8 as it is, keep that reading.
func Recode(text func([]byte) string, pairs []Pair) {
	for i := range pairs {
		pairs[i].Key = text([]byte(pairs[i].Key))
		pairs[i].Value = []byte(text(pairs[i].Value))
	}
}
