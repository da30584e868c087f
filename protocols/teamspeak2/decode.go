package teamspeak2

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Bounds on what a server may send: a real si reply is some 30 short lines.
const (
	maxLine    = 4096 // one line
	maxLines   = 128  // data lines of si
	maxPlayers = 1024 // rows of pl (TS2 servers hold a few hundred at most)
	maxDigits  = 18   // a count within int64 without overflow checks
)

// replyEnd says whether a line ends a command's reply: nil and true on "OK", an
// ErrServer error and true on an "ERROR..." line.
func replyEnd(line []byte, cmd string) (bool, error) {
	switch {
	case bytes.Equal(line, []byte("OK")):
		return true, nil
	case len(line) >= 5 && strings.EqualFold(string(line[:5]), "ERROR"):
		return true, fmt.Errorf("%w: %s: %q", wire.ErrServer, cmd, clip(line))
	}
	return false, nil
}

// decodeServerInfo maps si's key=value lines onto a Result; lines without '='
// are kept in the info under their own text. text makes the strings UTF-8.
func decodeServerInfo(lines [][]byte, text func([]byte) string) (*protocols.Result, error) {
	res := &protocols.Result{Info: make([]protocols.KV, 0, len(lines))}
	seen := false
	for _, l := range lines {
		k, v, _ := bytes.Cut(l, []byte("="))
		key, val := text(k), text(v)
		res.Info = append(res.Info, protocols.KV{Key: key, Value: val})
		switch key {
		case "server_name":
			res.Name, seen = val, true
		case "server_currentusers":
			n, ok := count(v)
			if !ok {
				return nil, fmt.Errorf("%w: server_currentusers %q is not a count", wire.ErrMalformed, clip(v))
			}
			res.Players = protocols.Known(n)
		case "server_maxusers":
			n, ok := count(v)
			if !ok {
				return nil, fmt.Errorf("%w: server_maxusers %q is not a count", wire.ErrMalformed, clip(v))
			}
			res.MaxPlayers = protocols.Known(n)
		case "server_uptime": // seconds; an unreadable value is left unknown, not an error
			if n, ok := count(v); ok {
				res.Uptime = protocols.SpanSeconds(float64(n))
			}
		case "server_password":
			switch val {
			case "0", "1":
				res.Password = protocols.FlagOf(val == "1")
			default:
				return nil, fmt.Errorf("%w: server_password %q, want 0 or 1", wire.ErrMalformed, clip(v))
			}
		}
	}
	if !seen && !res.Players.Known {
		return nil, fmt.Errorf("%w: si answered neither server_name nor server_currentusers (%d lines)", wire.ErrMalformed, len(lines))
	}
	return res, nil
}

// decodePlayers reads pl's header line and rows: the nick (quotes stripped), the
// ping (ms) and the login time (s), found by column name.
func decodePlayers(lines [][]byte, text func([]byte) string) ([]protocols.Player, error) {
	if len(lines) == 0 {
		return nil, fmt.Errorf("%w: pl answered no header line", wire.ErrMalformed)
	}
	col := map[string]int{}
	for i, name := range bytes.Split(lines[0], []byte("\t")) {
		col[string(name)] = i
	}
	nick, ok := col["nick"]
	if !ok {
		return nil, fmt.Errorf("%w: pl header %q has no nick column", wire.ErrMalformed, clip(lines[0]))
	}
	ping, hasPing := col["ping"]
	login, hasLogin := col["logintime"]
	out := make([]protocols.Player, 0, len(lines)-1)
	for i, row := range lines[1:] {
		f := bytes.Split(row, []byte("\t"))
		if len(f) <= nick {
			return nil, fmt.Errorf("%w: pl row %d has %d columns, the nick is column %d", wire.ErrMalformed, i, len(f), nick+1)
		}
		p := protocols.Player{Name: text(unquote(f[nick]))}
		if hasPing && ping < len(f) {
			if n, ok := count(f[ping]); ok {
				p.Ping = protocols.Known(n)
			}
		}
		if hasLogin && login < len(f) {
			if n, ok := count(f[login]); ok {
				p.Duration, p.DurationKnown = float64(n), true
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// unquote strips the quotes pl puts around strings.
func unquote(b []byte) []byte {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		return b[1 : len(b)-1]
	}
	return b
}

// count parses a non-negative decimal of at most maxDigits digits.
func count(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > maxDigits {
		return 0, false
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil && n >= 0 && b[0] != '+' && b[0] != '-'
}

// clip shortens what an error quotes of a peer's line.
func clip(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}
