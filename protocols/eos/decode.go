package eos

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	maxTokenLen   = 8192
	maxAttributes = 128
	// maxTokenLife bounds how long a token is kept whatever expires_in says.
	maxTokenLife = 24 * time.Hour
)

// tokenJSON is the part of the token endpoint's answer we read.
type tokenJSON struct {
	AccessToken string  `json:"access_token"`
	ExpiresIn   float64 `json:"expires_in"`
}

// decodeToken reads the token endpoint's JSON: the bearer token and its life
// (0 when the answer gives none: the token is then used once, not kept).
func decodeToken(body []byte) (string, time.Duration, error) {
	var t tokenJSON
	if err := json.Unmarshal(body, &t); err != nil {
		return "", 0, fmt.Errorf("%w: token: %v", wire.ErrMalformed, err)
	}
	if t.AccessToken == "" {
		return "", 0, fmt.Errorf("%w: token answer without access_token", wire.ErrMalformed)
	}
	if len(t.AccessToken) > maxTokenLen {
		return "", 0, fmt.Errorf("%w: access_token of %d bytes", wire.ErrTooLarge, len(t.AccessToken))
	}
	for i := 0; i < len(t.AccessToken); i++ {
		if c := t.AccessToken[i]; c <= ' ' || c >= 0x7f {
			return "", 0, fmt.Errorf("%w: access_token byte %d is not printable ASCII", wire.ErrMalformed, i)
		}
	}
	life := time.Duration(0)
	if t.ExpiresIn > 0 {
		life = time.Duration(min(t.ExpiresIn, maxTokenLife.Seconds()) * float64(time.Second))
	}
	return t.AccessToken, life, nil
}

// epicError is the error body of Epic's web APIs.
type epicError struct {
	ErrorCode string `json:"errorCode"`
	// The OAuth endpoint answers RFC 6749 errors.
	OAuthError string `json:"error"`
}

// errorCode returns the Epic error code of a body, reduced to the characters
// such codes have ("errors.com.epicgames.common.policy_missing_action"), or "".
// It is a code from a fixed vocabulary, not free text, so it may go in an error.
func errorCode(body []byte) string {
	var e epicError
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	code := e.ErrorCode
	if code == "" {
		code = e.OAuthError
	}
	if len(code) > 120 {
		code = code[:120]
	}
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '_' || r == '-' || r == ':' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return r
		}
		return -1
	}, code)
}

// filterJSON is the matchmaking filter's answer. Attributes stay raw until
// the session is picked: only its values are decoded.
type filterJSON struct {
	Sessions []sessionJSON `json:"sessions"`
	Count    *int          `json:"count"`
}

type sessionJSON struct {
	ID           string `json:"id"`
	TotalPlayers *int64 `json:"totalPlayers"`
	Settings     struct {
		MaxPublicPlayers *int64 `json:"maxPublicPlayers"`
	} `json:"settings"`
	Attributes map[string]json.RawMessage `json:"attributes"`
}

// attrNames says which session attributes hold what.
type attrNames struct {
	name, mapName, password, players string
	version                          []string
}

// pick is the outcome of a filter answer for one server.
type pick struct {
	session  *sessionJSON
	sessions int // sessions in the answer
	matches  int // of them, bound to the target's port
}

// decodeSessions parses the filter answer and picks the session of target:
// its ADDRESSBOUND_s is IP:PORT (or 0.0.0.0:PORT, a server bound to every
// address), or its GAMESERVER_PORT_l is the port (the rules gamedig applies).
func decodeSessions(body []byte, target netip.AddrPort) (pick, error) {
	var f filterJSON
	if err := json.Unmarshal(body, &f); err != nil {
		return pick{}, fmt.Errorf("%w: sessions: %v", wire.ErrMalformed, err)
	}
	if f.Sessions == nil {
		return pick{}, fmt.Errorf("%w: answer without a sessions list", wire.ErrMalformed)
	}
	port := strconv.Itoa(int(target.Port()))
	bound := target.String()
	anyBound := "0.0.0.0:" + port
	p := pick{sessions: len(f.Sessions)}
	for i := range f.Sessions {
		s := &f.Sessions[i]
		b, _ := attrString(s.Attributes, "ADDRESSBOUND_s")
		gp, _ := attrString(s.Attributes, "GAMESERVER_PORT_l")
		if b == bound || b == anyBound || gp == port {
			if p.session == nil {
				p.session = s
			}
			p.matches++
		}
	}
	return p, nil
}

// attrString returns an attribute as text: a JSON string unquoted, a number or
// boolean as written.
func attrString(attrs map[string]json.RawMessage, key string) (string, bool) {
	raw, ok := attrs[key]
	if !ok || key == "" {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	if len(raw) > 0 && (raw[0] == '{' || raw[0] == '[' || string(raw) == "null") {
		return "", false
	}
	return wire.UTF8(raw), true
}

// attrCount reads a count attribute (`_l`): a whole number from 0 to 1<<31.
func attrCount(attrs map[string]json.RawMessage, key string) (int64, bool) {
	v, ok := attrString(attrs, key)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > 1<<31 {
		return 0, false
	}
	return n, true
}

// attrFlag reads a yes/no attribute: a JSON boolean (`_b`), or 0/1 (`_l`).
func attrFlag(attrs map[string]json.RawMessage, key string) protocols.Flag {
	switch string(attrs[key]) {
	case "true", "1":
		return protocols.FlagTrue
	case "false", "0":
		return protocols.FlagFalse
	}
	return protocols.FlagUnknown
}

// result builds the Result of a picked session. Every attribute goes to Info
// (sorted, at most maxAttributes) and, when asked for, to Rules.
func (s *sessionJSON) result(names attrNames, rules bool) *protocols.Result {
	res := &protocols.Result{}
	res.Name, _ = attrString(s.Attributes, names.name)
	res.Map, _ = attrString(s.Attributes, names.mapName)
	res.Password = attrFlag(s.Attributes, names.password)
	var parts []string
	for _, k := range names.version {
		if v, ok := attrString(s.Attributes, k); ok && v != "" {
			parts = append(parts, v)
		}
	}
	res.Version = strings.Join(parts, ".")
	if n, ok := attrCount(s.Attributes, names.players); ok {
		res.Players = protocols.Known(n)
	} else if s.TotalPlayers != nil && *s.TotalPlayers >= 0 {
		res.Players = protocols.Known(*s.TotalPlayers)
	}
	if m := s.Settings.MaxPublicPlayers; m != nil && *m >= 0 {
		res.MaxPlayers = protocols.Known(*m)
	}
	keys := make([]string, 0, len(s.Attributes))
	for k := range s.Attributes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) > maxAttributes {
		keys = keys[:maxAttributes]
	}
	kvs := make([]protocols.KV, 0, len(keys))
	for _, k := range keys {
		v, _ := attrString(s.Attributes, k)
		kvs = append(kvs, protocols.KV{Key: k, Value: v})
	}
	if rules {
		res.Rules = kvs
	}
	res.Info = kvs
	if s.ID != "" {
		res.Info = append([]protocols.KV{{Key: "session_id", Value: s.ID}}, kvs...)
	}
	return res
}
