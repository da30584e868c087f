package terraria

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	// maxPlayers caps the player list kept: Terraria has at most 255 slots.
	maxPlayers = 256
	// maxRules caps the rules kept (TShock sends 13).
	maxRules = 64
	// maxError caps how much of TShock's own error text an error quotes.
	maxError = 160
)

// number is a count TShock sends as a JSON number (v2) or a decimal string (the
// old /status endpoint did, and plugins that imitate it may).
type number struct {
	v   int64
	set bool
}

func (n *number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	s := string(bytes.Trim(b, `"`))
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("not an integer: %q", s[:min(len(s), 20)]) // quoted: the bytes may not be UTF-8
	}
	n.v, n.set = v, true
	return nil
}

// status is the /v2/server/status reply; fields TShock may omit are pointers or
// number so that absent stays distinct from zero.
type status struct {
	Status         json.RawMessage            `json:"status"` // "200", or the error's code
	Error          string                     `json:"error"`
	Name           string                     `json:"name"`
	ServerVersion  string                     `json:"serverversion"`
	TShockVersion  json.RawMessage            `json:"tshockversion"` // "5.2.0.0" or a System.Version object
	Port           number                     `json:"port"`
	PlayerCount    number                     `json:"playercount"`
	MaxPlayers     number                     `json:"maxplayers"`
	World          string                     `json:"world"`
	Uptime         string                     `json:"uptime"` // d.hh:mm:ss
	ServerPassword *bool                      `json:"serverpassword"`
	Players        []player                   `json:"players"`
	Rules          map[string]json.RawMessage `json:"rules"`
}

type player struct {
	Nickname string `json:"nickname"`
	Username string `json:"username"` // TShock account, "" when not logged in
	Group    string `json:"group"`
	Active   bool   `json:"active"`
	State    int    `json:"state"`
	Team     int    `json:"team"`
}

// teams names Terraria's team ids (0 is no team).
var teams = [...]string{"", "red", "green", "blue", "yellow", "pink"}

// decode checks an HTTP response and parses its status body.
func decode(resp *wire.HTTPResponse) (*status, error) {
	var st status
	if err := wire.DecodeJSON(resp, &st); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	return &st, nil
}

// check turns TShock's in-body status into an error and rejects JSON that is not
// a status reply at all.
func (st *status) check() error {
	code := strings.Trim(string(st.Status), `"`)
	switch code {
	case "200":
	case "":
		return fmt.Errorf("%w: no status field: not a TShock /v2/server/status reply", wire.ErrMalformed)
	case "401": // no token sent
		return fmt.Errorf("%w: TShock status 401: authentication failed: this server requires a REST token for /v2/server/status (EnableTokenEndpointAuthentication): give the module one (terraria: {token_file: ...}, a token of TShock's ApplicationRestTokens)", wire.ErrServer)
	case "403":
		return fmt.Errorf("%w: TShock status 403: authentication failed: the module's REST token was refused (not one TShock knows, or its group lost the right)", wire.ErrServer)
	case "404":
		return fmt.Errorf("%w: TShock status 404: no /v2/server/status endpoint on this REST API", wire.ErrServer)
	default:
		if len(code) > 8 {
			code = code[:8]
		}
		return fmt.Errorf("%w: TShock status %q: %s", wire.ErrServer, wire.UTF8([]byte(code)), quote(st.Error))
	}
	if !st.PlayerCount.set {
		return fmt.Errorf("%w: status 200 without playercount: not a TShock /v2/server/status reply", wire.ErrMalformed)
	}
	if st.PlayerCount.v < 0 || st.MaxPlayers.v < 0 {
		return fmt.Errorf("%w: negative playercount %d or maxplayers %d", wire.ErrMalformed, st.PlayerCount.v, st.MaxPlayers.v)
	}
	return nil
}

// quote returns at most maxError bytes of a peer's message, valid UTF-8.
func quote(s string) string {
	if len(s) > maxError {
		s = s[:maxError] + "..."
	}
	return strconv.Quote(strings.ToValidUTF8(s, "\uFFFD"))
}

// tshockVersion renders tshockversion, a string or a serialised System.Version.
func (st *status) tshockVersion() string {
	raw := st.TShockVersion
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var v struct{ Major, Minor, Build, Revision *int }
	if json.Unmarshal(raw, &v) != nil || v.Major == nil {
		return ""
	}
	parts := []string{strconv.Itoa(*v.Major)}
	for _, p := range []*int{v.Minor, v.Build, v.Revision} {
		if p == nil || *p < 0 {
			break
		}
		parts = append(parts, strconv.Itoa(*p))
	}
	return strings.Join(parts, ".")
}

// result maps a checked status to the exporter's Result.
func (st *status) result(withPlayers, withRules bool) *protocols.Result {
	res := &protocols.Result{
		Name:    st.Name,
		Map:     st.World,
		Version: st.ServerVersion,
		Players: protocols.Known(st.PlayerCount.v),
	}
	if st.MaxPlayers.set {
		res.MaxPlayers = protocols.Known(st.MaxPlayers.v)
	}
	if st.ServerPassword != nil {
		res.Password = protocols.FlagOf(*st.ServerPassword)
	}
	tv := st.tshockVersion()
	kv := func(k, v string) { res.Info = append(res.Info, protocols.KV{Key: k, Value: v}) }
	kv("name", st.Name)
	kv("world", st.World)
	kv("serverversion", st.ServerVersion)
	kv("tshockversion", tv)
	if st.Port.set {
		kv("port", strconv.FormatInt(st.Port.v, 10))
	}
	kv("playercount", strconv.FormatInt(st.PlayerCount.v, 10))
	if st.MaxPlayers.set {
		kv("maxplayers", strconv.FormatInt(st.MaxPlayers.v, 10))
	}
	kv("uptime", st.Uptime)
	if d, ok := parseUptime(st.Uptime); ok {
		res.Uptime = protocols.SpanSeconds(d)
	}
	if st.ServerPassword != nil {
		kv("serverpassword", strconv.FormatBool(*st.ServerPassword))
	}
	if withPlayers && st.Players != nil {
		res.PlayerList = make([]protocols.Player, 0, min(len(st.Players), maxPlayers))
		inactive := 0
		for _, p := range st.Players {
			// TShock lists every player slot in use, including clients still
			// joining (active false); playercount counts only active ones.
			if !p.Active {
				inactive++
				continue
			}
			if len(res.PlayerList) == maxPlayers {
				kv("players_dropped", strconv.Itoa(len(st.Players)-maxPlayers))
				break
			}
			res.PlayerList = append(res.PlayerList, protocols.Player{Name: p.Nickname, Team: teamName(p.Team)})
		}
		if inactive > 0 {
			kv("players_inactive", strconv.Itoa(inactive))
		}
	}
	if withRules && st.Rules != nil {
		keys := make([]string, 0, len(st.Rules))
		for k := range st.Rules {
			keys = append(keys, k)
		}
		slices.Sort(keys) // a JSON object has no order; sorting keeps series stable
		for _, k := range keys[:min(len(keys), maxRules)] {
			res.Rules = append(res.Rules, protocols.KV{Key: k, Value: ruleValue(st.Rules[k])})
		}
	}
	return res
}

func teamName(t int) string {
	if t >= 0 && t < len(teams) {
		return teams[t]
	}
	return strconv.Itoa(t)
}

// ruleValue renders a rule: strings unquoted, anything else as its JSON text.
func ruleValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// parseUptime reads TShock's uptime, the process's age as .NET formats a TimeSpan
// with d'.'hh':'mm':'ss: "1.02:03:04" is a day, 2 hours, 3 minutes and 4 seconds.
// Anything else (an older or patched TShock) is no uptime, not an error.
func parseUptime(s string) (float64, bool) {
	days, hms, ok := strings.Cut(s, ".")
	if !ok || len(hms) != 8 || hms[2] != ':' || hms[5] != ':' {
		return 0, false
	}
	var v [4]int64
	for i, f := range []string{days, hms[0:2], hms[3:5], hms[6:8]} {
		n, err := strconv.ParseUint(f, 10, 32)
		if err != nil || len(f) == 0 || f[0] == '+' {
			return 0, false
		}
		v[i] = int64(n)
	}
	if v[1] > 23 || v[2] > 59 || v[3] > 59 {
		return 0, false
	}
	return float64(((v[0]*24+v[1])*60+v[2])*60 + v[3]), true
}
