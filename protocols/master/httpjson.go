package master

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Fields maps a JSON list onto entries (type http_json): List is the path of
// the array of servers (dot-separated keys of nested objects; "" when the
// document is the array), the others paths within one server's object. Address
// is required: an IP address, "ip:port", a host name or "name:port"; Port is
// needed when Address has none (DefaultPort, when set, stands in for both).
// A key matches case-insensitively when no key matches exactly, and a number
// in a path indexes an array ("servers.0.name"). A number may be sent as a
// string; Players may be an array (a list of names: its length counts). An
// address may carry an http(s):// scheme and a path: both are cut off.
// PlayerNames is an array of names or a string of names ending in ';'
// (BeamMP's playerslist).
type Fields struct {
	List     string `yaml:"list,omitempty"`
	Address  string `yaml:"address"`
	Port     string `yaml:"port,omitempty"`
	Name     string `yaml:"name,omitempty"`
	Players  string `yaml:"players,omitempty"`
	Max      string `yaml:"max,omitempty"`
	Map      string `yaml:"map,omitempty"`
	Game     string `yaml:"game,omitempty"`
	Version  string `yaml:"version,omitempty"`
	Country  string `yaml:"country,omitempty"`
	Password string `yaml:"password,omitempty"`
	// PlayerNames is where the list names the players, when it does.
	PlayerNames string `yaml:"player_names,omitempty"`
	// DefaultPort is the port of an entry whose address and port say none.
	DefaultPort int `yaml:"default_port,omitempty"`
}

// fieldPaths is Fields split into keys.
type fieldPaths struct {
	list                                                                    []string
	address, port, name, players, max, mapName, game, version, cc, password []string
	playerNames                                                             []string
	defaultPort                                                             int
	// codes is the byte that starts the list's two-byte colour codes in
	// names (Source.Codes), 0 for none.
	codes byte
}

func split(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, ".")
}

func (f Fields) paths() (fieldPaths, error) {
	if f.Address == "" {
		return fieldPaths{}, fmt.Errorf("fields: address is required")
	}
	for _, p := range []string{f.List, f.Address, f.Port, f.Name, f.Players, f.Max, f.Map, f.Game, f.Version, f.Country, f.Password, f.PlayerNames} {
		if strings.HasPrefix(p, ".") || strings.HasSuffix(p, ".") || strings.Contains(p, "..") || len(p) > 256 {
			return fieldPaths{}, fmt.Errorf("fields: path %q: want dot-separated keys", p)
		}
	}
	if f.DefaultPort < 0 || f.DefaultPort > 65535 {
		return fieldPaths{}, fmt.Errorf("fields: default_port %d out of range 1..65535", f.DefaultPort)
	}
	return fieldPaths{
		defaultPort: f.DefaultPort,
		list:        split(f.List), address: split(f.Address), port: split(f.Port), name: split(f.Name),
		players: split(f.Players), max: split(f.Max), mapName: split(f.Map), game: split(f.Game),
		version: split(f.Version), cc: split(f.Country), password: split(f.Password), playerNames: split(f.PlayerNames),
	}, nil
}

type httpJSON struct {
	httpList
	fields fieldPaths
}

func newHTTPJSON(s Source) (Lister, error) {
	if s.Query != "" {
		return nil, errNoQuery(s.Type)
	}
	h, err := newHTTPList(s, "")
	if err != nil {
		return nil, err
	}
	f, err := s.Fields.paths()
	if err != nil {
		return nil, err
	}
	f.codes = s.Codes
	h.user, h.token = s.Username, s.Token
	return &httpJSON{h, f}, nil
}

func (h *httpJSON) List(ctx context.Context, tr *wire.Trace) (*List, error) {
	return h.fetch(ctx, tr, func(r io.Reader, c *collector) error { return decodeHTTPJSON(r, h.fields, c) })
}

// decodeHTTPJSON reads a JSON list into c, server by server, until c is full.
func decodeHTTPJSON(r io.Reader, f fieldPaths, c *collector) error {
	return eachElement(r, f.list, c, func(raw []byte) bool {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			c.skip(SkipMalformed)
			return false
		}
		e, ok := f.entry(obj)
		if !ok {
			c.skip(SkipNoAddress)
			return false
		}
		return !c.add(e) && c.full()
	})
}

// entry maps one server's object; false when it has no usable address.
func (f fieldPaths) entry(obj map[string]json.RawMessage) (Entry, bool) {
	e := Entry{
		Name: stripCodes(str(lookup(obj, f.name)), f.codes), Map: str(lookup(obj, f.mapName)), Game: str(lookup(obj, f.game)),
		Version: str(lookup(obj, f.version)), Country: country(str(lookup(obj, f.cc))),
		Players: count(lookup(obj, f.players)), Max: count(lookup(obj, f.max)), Password: flag(lookup(obj, f.password)),
		PlayerNames: playerNames(lookup(obj, f.playerNames)),
	}
	port := -1
	if f.port != nil {
		if n := count(lookup(obj, f.port)); n.Known && n.Value > 0 && n.Value < 65536 {
			port = int(n.Value)
		}
	}
	return e, place(&e, str(lookup(obj, f.address)), port, f.defaultPort)
}

// place sets e's address from a list's address text ("ip", "ip:port", a name
// or "name:port", perhaps as an http(s) URL) and port (-1: none given; the
// address's, else def, stands in). It reports whether the address is usable.
func place(e *Entry, addr string, port, def int) bool {
	addr = strings.TrimSpace(addr)
	for _, scheme := range []string{"http://", "https://"} {
		if len(addr) > len(scheme) && strings.EqualFold(addr[:len(scheme)], scheme) {
			addr = addr[len(scheme):]
			if i := strings.IndexByte(addr, '/'); i >= 0 {
				addr = addr[:i]
			}
		}
	}
	if addr == "" {
		return false
	}
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]") // a bare address or name
	} else if n, err := strconv.Atoi(p); err == nil && n > 0 && n < 65536 && port < 0 {
		port = n
	}
	if port < 0 && def > 0 {
		port = def
	}
	if port < 0 {
		return false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		e.Addr = netip.AddrPortFrom(ip.WithZone(""), uint16(port))
		return true
	}
	if !hostName(host) {
		return false
	}
	e.Host = net.JoinHostPort(strings.ToLower(strings.TrimSuffix(host, ".")), strconv.Itoa(port))
	return true
}

// stripCodes removes two-byte colour codes starting with c (BeamMP's ^1,
// BROKE PROTOCOL's &a) from s; c 0 leaves s as it is.
func stripCodes(s string, c byte) string {
	if c == 0 || strings.IndexByte(s, c) < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == c && i+1 < len(s) && s[i+1] < 0x80 && s[i+1] > ' ' {
			i++
			continue
		}
		b = append(b, s[i])
	}
	return strings.TrimSpace(string(b))
}

// hostName says whether s is a DNS name: letters, digits, hyphens and dots,
// at most 253 bytes, with a letter somewhere (so "1.2.3" is no name).
func hostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isLetter(c):
			letter = true
		case c >= '0' && c <= '9', c == '-', c == '.', c == '_':
		default:
			return false
		}
	}
	return letter && !strings.Contains(s, "..") && s[0] != '.' && s[0] != '-'
}

// lookup follows path through nested objects (and arrays, by index).
func lookup(obj map[string]json.RawMessage, path []string) json.RawMessage {
	if len(path) == 0 {
		return nil
	}
	v, ok := obj[path[0]]
	if !ok {
		for k, kv := range obj {
			if strings.EqualFold(k, path[0]) {
				v, ok = kv, true
				break
			}
		}
	}
	if !ok || len(path) == 1 {
		return v
	}
	return descend(v, path[1:])
}

// descend follows path from v: a key into an object, an index into an array.
func descend(v json.RawMessage, path []string) json.RawMessage {
	if len(v) > 0 && v[0] == '[' {
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 {
			return nil
		}
		var a []json.RawMessage
		if json.Unmarshal(v, &a) != nil || i >= len(a) {
			return nil
		}
		if len(path) == 1 {
			return a[i]
		}
		return descend(a[i], path[1:])
	}
	var inner map[string]json.RawMessage
	if json.Unmarshal(v, &inner) != nil {
		return nil
	}
	return lookup(inner, path)
}

// str is a string value, or a number's or bool's text; "" for anything else.
func str(v json.RawMessage) string {
	if len(v) == 0 {
		return ""
	}
	switch v[0] {
	case '"':
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
	case 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return string(v)
	}
	return ""
}

// count is a number (or numeric string), or the length of an array.
func count(v json.RawMessage) protocols.Count {
	if len(v) == 0 {
		return protocols.Count{}
	}
	if v[0] == '[' {
		var a []json.RawMessage
		if json.Unmarshal(v, &a) == nil {
			return protocols.Known(int64(len(a)))
		}
		return protocols.Count{}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(str(v)), 64)
	if err != nil || f < 0 || f > math.MaxInt32 || math.IsNaN(f) {
		return protocols.Count{}
	}
	return protocols.Known(int64(f))
}

// flag is a bool, a number (non-zero is true) or "true"/"false"-like text.
func flag(v json.RawMessage) protocols.Flag {
	if len(v) == 0 || v[0] == '{' || v[0] == '[' || string(v) == "null" {
		return protocols.FlagUnknown
	}
	switch strings.ToLower(strings.TrimSpace(str(v))) {
	case "true", "1", "yes", "on":
		return protocols.FlagTrue
	case "false", "0", "no", "off", "":
		return protocols.FlagFalse
	}
	return protocols.FlagUnknown
}

// String keeps a sign-in token out of %v.
func (h *httpJSON) String() string { return "http_json list " + RedactURL(h.url) }
