package ventrilo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	cmdDetailed = 2  // detailed status (1 is the generic one)
	maxPackets  = 32 // datagrams of one answer
	maxData     = 512
)

// errSkip marks a datagram that does not answer this request.
var errSkip = errors.New("not a fragment of this answer")

// assembly collects the fragments of one answer.
type assembly struct {
	id     uint16
	totPck uint16
	parts  [][]byte
	got    int
}

// add takes one datagram. It returns done when every fragment is in, an error
// wrapping errSkip for a datagram that is not one of ours (or a duplicate), and
// another error for a fragment that cannot belong to a well-formed answer.
func (a *assembly) add(d []byte) (done bool, err error) {
	if len(d) < headerLen {
		return false, fmt.Errorf("%w: %d bytes, shorter than the header", errSkip, len(d))
	}
	h, data := decode(d)
	if h.Zero != 0 || h.ID != a.id {
		return false, fmt.Errorf("%w: id %d (zero field %d), sent %d", errSkip, h.ID, h.Zero, a.id)
	}
	switch {
	case h.TotPck == 0:
		return false, fmt.Errorf("%w: fragment of an answer of 0 packets", wire.ErrMalformed)
	case h.TotPck > maxPackets:
		return false, fmt.Errorf("%w: answer of %d packets, at most %d", wire.ErrTooLarge, h.TotPck, maxPackets)
	case h.Pck >= h.TotPck:
		return false, fmt.Errorf("%w: packet %d of %d", wire.ErrMalformed, h.Pck, h.TotPck)
	case h.Len > maxData:
		return false, fmt.Errorf("%w: packet %d says %d data bytes, at most %d", wire.ErrTooLarge, h.Pck, h.Len, maxData)
	case int(h.Len) > len(data):
		return false, fmt.Errorf("%w: packet %d says %d data bytes, carries %d", wire.ErrTruncated, h.Pck, h.Len, len(data))
	}
	if a.parts == nil {
		a.totPck, a.parts = h.TotPck, make([][]byte, h.TotPck)
	} else if h.TotPck != a.totPck {
		return false, fmt.Errorf("%w: packet %d says %d packets, an earlier one %d", wire.ErrMalformed, h.Pck, h.TotPck, a.totPck)
	}
	if a.parts[h.Pck] != nil {
		return false, fmt.Errorf("%w: packet %d again", errSkip, h.Pck)
	}
	a.parts[h.Pck] = data[:h.Len:h.Len]
	a.got++
	return a.got == int(a.totPck), nil
}

// text joins the fragments.
func (a *assembly) text() []byte {
	var out []byte
	for _, p := range a.parts {
		out = append(out, p...)
	}
	return out
}

// unescape decodes the %XX escapes of a text value (bytes of the clients'
// code page: "%96" is Windows-1252's en dash) and makes it UTF-8 by text.
func unescape(s string, text func([]byte) string) string {
	if !strings.Contains(s, "%") {
		return text([]byte(s))
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b = append(b, byte(v))
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return text(b)
}

// fields splits a CHANNEL: or CLIENT: value into its FIELD=value pairs.
func fields(s string) map[string]string {
	m := map[string]string{}
	for _, f := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(f, "=")
		m[strings.ToUpper(k)] = v
	}
	return m
}

// infoKeys are the status keys kept in Info, with their Info names.
var infoKeys = map[string]string{
	"PHONETIC": "phonetic", "COMMENT": "comment", "PLATFORM": "platform", "AUTH": "auth",
	"VOICECODEC": "voice_codec", "VOICEFORMAT": "voice_format", "CHANNELCOUNT": "channels",
}

// status collects what the lines of a status text say.
type status struct {
	res      *protocols.Result
	clients  []map[string]string
	channels map[string]string // CID -> name
	named    bool
	text     func([]byte) string // the server's code page
}

// unescape is unescape in the server's code page.
func (st *status) unescape(s string) string { return unescape(s, st.text) }

// line reads one "KEY: value" line.
func (st *status) line(line string) error {
	line = strings.TrimRight(line, "\r\x00")
	key, val, ok := strings.Cut(line, ":")
	if !ok {
		return nil
	}
	val = strings.TrimPrefix(val, " ")
	res := st.res
	switch key = strings.ToUpper(key); key {
	case "ERROR":
		return fmt.Errorf("%w: the server says %q", wire.ErrServer, clip(st.unescape(val)))
	case "NAME":
		res.Name, st.named = st.unescape(val), true
	case "MAXCLIENTS":
		res.MaxPlayers = protocols.ParseCount(val)
	case "CLIENTCOUNT":
		res.Players = protocols.ParseCount(val)
	case "VERSION":
		res.Version = st.unescape(val)
	case "UPTIME":
		if n, err := strconv.ParseUint(val, 10, 63); err == nil {
			res.Uptime = protocols.SpanSeconds(float64(n))
		}
	case "AUTH":
		res.Password = protocols.FlagOf(strings.TrimSpace(val) != "0")
	case "CHANNEL":
		f := fields(val)
		st.channels[f["CID"]] = st.unescape(f["NAME"])
	case "CLIENT":
		st.clients = append(st.clients, fields(val))
	}
	if name, ok := infoKeys[key]; ok {
		res.Info = append(res.Info, protocols.KV{Key: name, Value: st.unescape(val)})
	}
	return nil
}

// result reads the status body, its strings made UTF-8 by text. players asks
// for the client list.
func result(body []byte, players bool, text func([]byte) string) (*protocols.Result, error) {
	st := &status{res: &protocols.Result{}, channels: map[string]string{}, text: text}
	for _, line := range strings.Split(string(body), "\n") {
		if err := st.line(line); err != nil {
			return nil, err
		}
	}
	res := st.res
	if !st.named {
		return nil, fmt.Errorf("%w: status without a NAME line", wire.ErrMalformed)
	}
	if !res.Players.Known && len(st.clients) > 0 {
		res.Players = protocols.Known(int64(len(st.clients)))
	}
	if players {
		res.PlayerList = st.playerList()
	}
	return res, nil
}

// playerList maps the CLIENT lines onto players, each in its channel.
func (st *status) playerList() []protocols.Player {
	out := make([]protocols.Player, 0, len(st.clients))
	for _, c := range st.clients {
		p := protocols.Player{Name: st.unescape(c["NAME"]), Ping: protocols.ParseCount(c["PING"])}
		if n := protocols.ParseCount(c["SEC"]); n.Known {
			p.Duration, p.DurationKnown = float64(n.Value), true
		}
		if ch := st.channels[c["CID"]]; ch != "" {
			p.Team = ch
		}
		out = append(out, p)
	}
	return out
}

// clip shortens a peer's text quoted in an error.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}
