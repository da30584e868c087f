package scpsl

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Caps on what Northwood sends: an account holds a handful of servers, a
// server at most a few hundred slots (100 by the game's own limit).
const (
	maxServers = 64
	maxPlayers = 1000
	maxListed  = 256
	maxErrText = 200
)

// answerJSON is serverinfo's answer, the fields read.
type answerJSON struct {
	Success  *bool        `json:"Success"`
	Error    string       `json:"Error"`
	Cooldown *int64       `json:"Cooldown"`
	Servers  []serverJSON `json:"Servers"`
}

// serverJSON is one of the account's servers.
type serverJSON struct {
	ID          int64             `json:"ID"`
	Port        int               `json:"Port"`
	Online      *bool             `json:"Online"`
	Players     string            `json:"Players"` // "n/m"
	PlayersList []json.RawMessage `json:"PlayersList"`
	Info        string            `json:"Info"` // the server name, base64
	Pastebin    string            `json:"Pastebin"`
	Version     string            `json:"Version"`
}

// decode reads a serverinfo answer. Success must be there: an object without
// it is not Northwood's.
func decode(body []byte) (*answerJSON, error) {
	var a answerJSON
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, fmt.Errorf("%w: serverinfo: %v", wire.ErrMalformed, err)
	}
	switch {
	case a.Success == nil:
		return nil, fmt.Errorf("%w: serverinfo answer without Success", wire.ErrMalformed)
	case len(a.Servers) > maxServers:
		return nil, fmt.Errorf("%w: %d servers listed, at most %d read", wire.ErrTooLarge, len(a.Servers), maxServers)
	}
	return &a, nil
}

// pick returns the server with id, or when id is 0, the one on port.
func (a *answerJSON) pick(id int64, port uint16) (*serverJSON, error) {
	for i := range a.Servers {
		s := &a.Servers[i]
		if id != 0 && s.ID == id || id == 0 && s.Port == int(port) {
			return s, nil
		}
	}
	if id != 0 {
		return nil, fmt.Errorf("%w: the account lists no server %d (%d servers)", wire.ErrNotListed, id, len(a.Servers))
	}
	return nil, fmt.Errorf("%w: the account lists no server on port %d (%d servers; server_id picks one)", wire.ErrNotListed, port, len(a.Servers))
}

// result maps a server: a server Northwood sees offline is down.
func (s *serverJSON) result(players bool) (*protocols.Result, error) {
	if s.Online != nil && !*s.Online {
		return nil, fmt.Errorf("%w: Northwood lists server %d (port %d) offline", wire.ErrServer, s.ID, s.Port)
	}
	n, m, err := counts(s.Players)
	if err != nil {
		return nil, fmt.Errorf("%w: server %d Players %q: %v", wire.ErrMalformed, s.ID, cut(s.Players, 40), err)
	}
	name, err := serverName(s.Info)
	if err != nil {
		return nil, fmt.Errorf("%w: server %d Info: %v", wire.ErrMalformed, s.ID, err)
	}
	res := &protocols.Result{
		Name:       name,
		Version:    wire.UTF8([]byte(s.Version)),
		Players:    protocols.Known(n),
		MaxPlayers: protocols.Known(m),
		Info: []protocols.KV{
			{Key: "server_id", Value: strconv.FormatInt(s.ID, 10)},
			{Key: "port", Value: strconv.Itoa(s.Port)},
		},
	}
	if s.Pastebin != "" {
		res.Info = append(res.Info, protocols.KV{Key: "pastebin", Value: wire.UTF8([]byte(s.Pastebin))})
	}
	if players {
		res.PlayerList = playerList(s.PlayersList)
	}
	return res, nil
}

// counts reads "n/m".
func counts(s string) (int64, int64, error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("want n/m")
	}
	n, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	m, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, fmt.Errorf("want n/m")
	case n < 0 || m < 0 || n > maxPlayers || m > maxPlayers:
		return 0, 0, fmt.Errorf("count out of 0..%d", maxPlayers)
	}
	return n, m, nil
}

// serverName decodes Info (base64 of the name as the server list shows it,
// Unity rich text and all) and strips the rich-text tags.
func serverName(info string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(info)
	if err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(info, "=")); err != nil {
			return "", fmt.Errorf("not base64")
		}
	}
	return stripRichText(wire.UTF8(b)), nil
}

// richTags are Unity's rich-text tags (Unity manual, "Rich Text"), the ones
// server names use.
var richTags = map[string]bool{
	"b": true, "i": true, "u": true, "s": true, "color": true, "size": true, "sub": true, "sup": true,
	"mark": true, "align": true, "alpha": true, "cspace": true, "font": true, "indent": true,
	"line-height": true, "lowercase": true, "uppercase": true, "smallcaps": true, "voffset": true,
	"pos": true, "space": true, "mspace": true, "margin": true, "noparse": true, "nobr": true,
	"br": true, "rotate": true, "width": true, "link": true, "style": true, "gradient": true,
}

// stripRichText removes <tag>, <tag=value> and </tag> of richTags; any other
// text in angle brackets stays.
func stripRichText(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		tag := strings.TrimPrefix(s[i+1:i+j], "/")
		if k := strings.IndexAny(tag, "= "); k >= 0 {
			tag = tag[:k]
		}
		b.WriteString(s[:i])
		if !richTags[strings.ToLower(tag)] {
			b.WriteString(s[i : i+j+1])
		}
		s = s[i+j+1:]
	}
}

// playerList reads PlayersList: with nicknames, objects {"ID", "Nickname"};
// bare user ids (steam/discord ids, without nicknames) are not names and are
// left out.
func playerList(raw []json.RawMessage) []protocols.Player {
	out := make([]protocols.Player, 0, min(len(raw), maxListed))
	for _, r := range raw {
		if len(out) == maxListed {
			break
		}
		var p struct {
			Nickname *string `json:"Nickname"`
		}
		if json.Unmarshal(r, &p) != nil || p.Nickname == nil {
			continue
		}
		out = append(out, protocols.Player{Name: wire.UTF8([]byte(*p.Nickname))})
	}
	return out
}

// errorText is Northwood's Error text fit to quote: the key masked, capped.
func errorText(s string, key protocols.Secret) string {
	if k := key.Reveal(); k != "" {
		s = strings.ReplaceAll(s, k, "<secret>")
	}
	return cut(s, maxErrText)
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "..."
}
