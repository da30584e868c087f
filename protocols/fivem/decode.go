package fivem

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Caps on what a server may make us hold. FXServer allows at most 2048 clients
// (OneSync), and its info string has about ten keys.
const (
	maxInfoPairs = 64
	maxPlayers   = 2048
	maxVars      = 256
)

const infoHeader = "\xff\xff\xff\xffinfoResponse"

// errNotInfo marks a datagram that is not an infoResponse (another OOB
// message, a stray): skipped, not fatal.
var errNotInfo = fmt.Errorf("%w: not an infoResponse", wire.ErrMalformed)

// decodeInfo parses one getinfo reply: `FF FF FF FF infoResponse 0A` and an
// info string `\key\value\key\value...`. Pairs come back in wire order; past
// maxInfoPairs they are dropped. A key without a value gets "".
func decodeInfo(b []byte) ([]protocols.KV, error) {
	rest, ok := bytes.CutPrefix(b, []byte(infoHeader))
	if !ok {
		return nil, errNotInfo
	}
	if len(rest) == 0 || (rest[0] != '\n' && rest[0] != '\\') {
		return nil, errNotInfo // infoResponseX, or a bare keyword
	}
	rest = bytes.TrimLeft(rest, "\n")
	rest = bytes.TrimRight(rest, "\n\x00")
	if len(rest) == 0 || rest[0] != '\\' {
		return nil, fmt.Errorf("%w: info string does not start with a backslash", wire.ErrMalformed)
	}
	rest = rest[1:]
	kvs := make([]protocols.KV, 0, 10)
	for len(rest) > 0 && len(kvs) < maxInfoPairs {
		var key, val []byte
		key, rest, _ = bytes.Cut(rest, []byte{'\\'})
		val, rest, _ = bytes.Cut(rest, []byte{'\\'})
		kvs = append(kvs, protocols.KV{Key: wire.UTF8(key), Value: wire.UTF8(val)})
	}
	return kvs, nil
}

// count reads a non-negative decimal count; anything else is "not reported".
func count(kvs []protocols.KV, key string) protocols.Count {
	v, ok := protocols.Lookup(kvs, key)
	if !ok {
		return protocols.Count{}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 {
		return protocols.Count{}
	}
	return protocols.Known(n)
}

// infoResult fills a Result from the info string.
func infoResult(kvs []protocols.KV) *protocols.Result {
	res := &protocols.Result{Info: kvs}
	if v, ok := protocols.Lookup(kvs, "hostname"); ok {
		res.Name = stripColours(v)
	}
	res.Map, _ = protocols.Lookup(kvs, "mapname")
	res.Game, _ = protocols.Lookup(kvs, "gametype")
	res.Players = count(kvs, "clients")
	res.MaxPlayers = count(kvs, "sv_maxclients")
	return res
}

// stripColours removes the Cfx.re colour codes `^0` to `^9` the server list
// renders in host and player names.
func stripColours(s string) string {
	i := strings.IndexByte(s, '^')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		if s[i] == '^' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// playerJSON is the part of a players.json entry we read. The entry also holds
// "identifiers" and "endpoint", which are deliberately not decoded.
type playerJSON struct {
	Name string `json:"name"`
	Ping *int64 `json:"ping"`
}

// decodePlayers reads players.json, an array of player objects, one element at
// a time so that a long list never costs more than maxPlayers entries. It
// reports how many entries it left past the cap.
func decodePlayers(body []byte) ([]protocols.Player, int, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, 0, fmt.Errorf("%w: players.json is not a JSON array", wire.ErrMalformed)
	}
	players := make([]protocols.Player, 0, 16)
	dropped := 0
	for dec.More() {
		if len(players) >= maxPlayers {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, 0, jsonErr("players.json", len(players)+dropped, err)
			}
			dropped++
			continue
		}
		var p playerJSON
		if err := dec.Decode(&p); err != nil {
			return nil, 0, jsonErr("players.json", len(players), err)
		}
		pl := protocols.Player{Name: stripColours(p.Name)}
		if p.Ping != nil && *p.Ping >= 0 {
			pl.Ping = protocols.Known(*p.Ping)
		}
		players = append(players, pl)
	}
	if _, err := dec.Token(); err != nil {
		return nil, 0, jsonErr("players.json", len(players)+dropped, err)
	}
	return players, dropped, nil
}

func jsonErr(what string, i int, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: %s ends inside entry %d", wire.ErrTruncated, what, i)
	}
	return fmt.Errorf("%w: %s entry %d: %v", wire.ErrMalformed, what, i, err)
}

// serverInfo is the part of info.json we read: the build string and the
// convars the server publishes (resources and the base64 icon are skipped).
type serverInfo struct {
	Server string                     `json:"server"`
	Vars   map[string]json.RawMessage `json:"vars"`
}

// decodeServerInfo reads info.json: the FXServer build ("FXServer-master
// SERVER v1.0.0.7290 win32") and its convars as rules, sorted by name, at most
// maxVars of them.
func decodeServerInfo(body []byte) (version string, rules []protocols.KV, err error) {
	var si serverInfo
	if err := json.Unmarshal(body, &si); err != nil {
		return "", nil, fmt.Errorf("%w: info.json: %v", wire.ErrMalformed, err)
	}
	keys := make([]string, 0, len(si.Vars))
	for k := range si.Vars {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) > maxVars {
		keys = keys[:maxVars]
	}
	rules = make([]protocols.KV, 0, len(keys))
	for _, k := range keys {
		raw := si.Vars[k]
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = wire.UTF8(raw) // numbers and booleans as written
		}
		rules = append(rules, protocols.KV{Key: k, Value: s})
	}
	return si.Server, rules, nil
}
