package teamspeak3

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Bounds on what a server may send. A real serverinfo line is a few KiB (the
// welcome and host messages are capped at 1 KiB each before escaping).
const (
	maxLine  = 32 << 10 // one line
	maxLines = 16       // lines read for one command, its error line and blank lines included
	maxPairs = 512      // key=value pairs in one line
	// maxListLine bounds clientlist's one line: an entry is about 100 bytes, and
	// maxClients of them fit.
	maxListLine = 192 << 10
	maxClients  = 1024 // entries of a clientlist: more than a virtual server's slots
	// maxDigits keeps a count within int64 without overflow checks.
	maxDigits = 18
)

// session is the client's side of the exchange over any source of lines: the
// querier feeds it the socket, the tests and the fuzzer a recorded transcript.
type session struct {
	// next returns the next line without its "\n", of at most limit bytes; it is
	// only valid until the following call.
	next func(limit int) ([]byte, error)
	// send writes one command line.
	send func(cmd string) error
}

// run greets, selects the virtual server on voicePort and decodes its serverinfo.
func (s session) run(voicePort uint16) (*protocols.Result, error) {
	line, err := s.line(maxLine)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(line, []byte("TS3")) {
		// An address under a flood ban may be turned away before the greeting.
		if isErrorLine(line) {
			if err := replyError(line, "greeting"); err != nil {
				return nil, err
			}
		}
		return nil, fmt.Errorf("%w: greeting %q is not TS3", wire.ErrMalformed, clip(line))
	}
	// The welcome line(s) come before use's error line: read and dropped as its data.
	if err := s.send("use port=" + strconv.Itoa(int(voicePort)) + "\n"); err != nil {
		return nil, err
	}
	if _, err := s.reply("use", maxLine); err != nil {
		return nil, err
	}
	if err := s.send("serverinfo\n"); err != nil {
		return nil, err
	}
	data, err := s.reply("serverinfo", maxLine)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, fmt.Errorf("%w: serverinfo answered no data line", wire.ErrMalformed)
	}
	return decodeServerInfo(data)
}

// clients asks clientlist (which the guest query group may, as it may serverinfo)
// and decodes its one line; an answer without one lists nobody.
func (s session) clients() ([]protocols.Player, error) {
	if err := s.send("clientlist\n"); err != nil {
		return nil, err
	}
	data, err := s.reply("clientlist", maxListLine)
	switch {
	case err != nil:
		return nil, err
	case data == nil:
		return []protocols.Player{}, nil
	}
	return decodeClients(data)
}

// line returns the next non-blank line (of at most limit bytes) with the "\r" the
// server puts after each "\n" (and any "\r\n") trimmed, counting blank lines
// against maxLines.
func (s session) line(limit int) ([]byte, error) {
	for range maxLines {
		l, err := s.next(limit)
		if err != nil {
			return nil, err
		}
		if l = bytes.Trim(l, "\r"); len(l) > 0 {
			return l, nil
		}
	}
	return nil, fmt.Errorf("%w: more than %d blank lines", wire.ErrMalformed, maxLines)
}

// reply reads a command's answer (its data lines of at most limit bytes) up to its
// error line and returns a copy of its last data line (nil when there was none),
// or the server's error.
func (s session) reply(cmd string, limit int) ([]byte, error) {
	var last []byte
	for range maxLines {
		l, err := s.line(limit)
		if err != nil {
			return nil, err
		}
		if isErrorLine(l) {
			if err := replyError(l, cmd); err != nil {
				return nil, err
			}
			return last, nil
		}
		last = append(last[:0], l...)
	}
	return nil, fmt.Errorf("%w: %s: no error line within %d lines", wire.ErrMalformed, cmd, maxLines)
}

func isErrorLine(l []byte) bool {
	return bytes.HasPrefix(l, []byte("error ")) || bytes.Equal(l, []byte("error"))
}

// replyError decodes an error line: nil for id 0, else an ErrServer error quoting
// the server's message (flood bans: id 3329 or 3331, "you may retry in N seconds").
func replyError(l []byte, cmd string) error {
	pairs, err := parsePairs(l[len("error"):])
	if err != nil {
		return err
	}
	var (
		id           = int64(-1)
		msg, extra   string
		haveID, okID bool
	)
	for _, kv := range pairs {
		switch kv.Key {
		case "id":
			haveID = true
			id, okID = count(kv.Value)
		case "msg":
			msg = kv.Value
		case "extra_msg":
			extra = kv.Value
		}
	}
	if !haveID || !okID {
		return fmt.Errorf("%w: %s: error line without a numeric id: %q", wire.ErrMalformed, cmd, clip(l))
	}
	if id == 0 {
		return nil
	}
	if extra != "" {
		msg += " (" + extra + ")"
	}
	return fmt.Errorf("%w: %s: error id=%d: %q", wire.ErrServer, cmd, id, msg)
}

// decodeServerInfo maps serverinfo's key=value line onto a Result.
func decodeServerInfo(line []byte) (*protocols.Result, error) {
	pairs, err := parsePairs(line)
	if err != nil {
		return nil, err
	}
	res := &protocols.Result{Info: pairs}
	var clients, queryClients protocols.Count
	seen := false
	for _, kv := range pairs {
		if strings.HasPrefix(kv.Key, "virtualserver_") {
			seen = true
		}
		switch kv.Key {
		case "virtualserver_name":
			res.Name = kv.Value
		case "virtualserver_version":
			res.Version = kv.Value
		case "virtualserver_maxclients":
			if res.MaxPlayers, err = known(kv); err != nil {
				return nil, err
			}
		case "virtualserver_clientsonline":
			if clients, err = known(kv); err != nil {
				return nil, err
			}
		case "virtualserver_queryclientsonline":
			if queryClients, err = known(kv); err != nil {
				return nil, err
			}
		case "virtualserver_uptime": // seconds since the virtual server started
			if v, ok := count(kv.Value); ok {
				res.Uptime = protocols.SpanSeconds(float64(v))
			}
		case "virtualserver_flag_password":
			switch kv.Value {
			case "0":
				res.Password = protocols.FlagFalse
			case "1":
				res.Password = protocols.FlagTrue
			}
		}
	}
	if !seen {
		return nil, fmt.Errorf("%w: serverinfo line has no virtualserver_ keys: %q", wire.ErrMalformed, clip(line))
	}
	// clientsonline counts query connections, this probe's own included: they are
	// not players.
	if clients.Known {
		res.Players = protocols.Known(max(clients.Value-queryClients.Value, 0))
	}
	return res, nil
}

// decodeClients maps clientlist's entries ('|' between them) onto players: the
// voice clients (client_type 0) by client_nickname. Query clients (type 1), this
// probe's own connection among them, are not players, as in serverinfo's count.
func decodeClients(line []byte) ([]protocols.Player, error) {
	players := []protocols.Player{}
	n := 0
	for entry := range bytes.SplitSeq(line, []byte{'|'}) {
		if n++; n > maxClients {
			return nil, fmt.Errorf("%w: more than %d clientlist entries", wire.ErrTooLarge, maxClients)
		}
		pairs, err := parsePairs(entry)
		if err != nil {
			return nil, err
		}
		kind, _ := protocols.Lookup(pairs, "client_type")
		name, named := protocols.Lookup(pairs, "client_nickname")
		switch {
		case kind == "1":
		case kind != "0" || !named:
			return nil, fmt.Errorf("%w: clientlist entry without client_type 0 or 1 and a nickname: %q", wire.ErrMalformed, clip(entry))
		default:
			players = append(players, protocols.Player{Name: name})
		}
	}
	return players, nil
}

func known(kv protocols.KV) (protocols.Count, error) {
	v, ok := count(kv.Value)
	if !ok {
		return protocols.Count{}, fmt.Errorf("%w: %s=%q is not a count", wire.ErrMalformed, kv.Key, clip([]byte(kv.Value)))
	}
	return protocols.Known(v), nil
}

// count parses a non-negative decimal of at most maxDigits digits.
func count(s string) (int64, bool) {
	if len(s) == 0 || len(s) > maxDigits {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// parsePairs splits a data line into its key=value pairs, values unescaped. A
// line listing several entries separates them with '|': only the first is read
// (serverinfo and error lines have one). A key without '=' has an empty value.
func parsePairs(line []byte) ([]protocols.KV, error) {
	if i := bytes.IndexByte(line, '|'); i >= 0 {
		line = line[:i]
	}
	var out []protocols.KV
	for f := range bytes.FieldsSeq(line) {
		if len(out) == maxPairs {
			return nil, fmt.Errorf("%w: more than %d key=value pairs in a line", wire.ErrTooLarge, maxPairs)
		}
		k, v, _ := bytes.Cut(f, []byte{'='})
		out = append(out, protocols.KV{Key: wire.UTF8(k), Value: unescape(v)})
	}
	return out, nil
}

// unescapes maps the byte after a backslash to what it stands for; 0: not an escape.
var unescapes = [256]byte{
	'\\': '\\', '/': '/', 's': ' ', 'p': '|',
	'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v',
}

// unescape undoes ServerQuery's escaping. An unknown escape, or a backslash
// ending the value, is kept as it came.
func unescape(v []byte) string {
	if bytes.IndexByte(v, '\\') < 0 {
		return wire.UTF8(v)
	}
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 == len(v) {
			out = append(out, c)
			continue
		}
		i++
		if u := unescapes[v[i]]; u != 0 {
			out = append(out, u)
		} else {
			out = append(out, '\\', v[i])
		}
	}
	return wire.UTF8(out)
}

// clip shortens what an error quotes of a peer's line.
func clip(b []byte) []byte {
	const n = 64
	if len(b) > n {
		return b[:n]
	}
	return b
}
