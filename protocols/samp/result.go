package samp

import (
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// status gathers what the phases decoded.
type status struct {
	variant string // as detected: samp, openmp or vcmp
	in      *info
	rules   [][2][]byte // nil when the rules phase did not answer
	extra   *extra
}

// openMP says whether the server is open.mp: its rules' version starts "omp ".
func (s *status) openMP(text func([]byte) string) bool {
	v, ok := s.rule("version", text)
	return ok && strings.HasPrefix(v, "omp ")
}

// rule returns a rule's value by name.
func (s *status) rule(name string, text func([]byte) string) (string, bool) {
	for _, kv := range s.rules {
		if strings.EqualFold(string(kv[0]), name) {
			return text(kv[1]), true
		}
	}
	return "", false
}

// result fills a Result: the info's counts, names and password, the version
// (VC:MP's info, else the "version" rule), the map (the "mapname" rule, else the
// info's third string before SA-MP 0.3.7 and on VC:MP).
func (s *status) result(text func([]byte) string, withRules bool) *protocols.Result {
	in := s.in
	res := &protocols.Result{
		Name:       text(in.name),
		Game:       text(in.mode),
		Players:    protocols.Known(int64(in.players)),
		MaxPlayers: protocols.Known(int64(in.max)),
		Password:   protocols.FlagOf(in.password),
	}
	third := "language"
	if s.variant == variantVCMP {
		third = "map"
		res.Map = text(in.third)
		res.Version = text(in.version)
	}
	if v, ok := s.rule("version", text); ok {
		res.Version = v
	}
	if m, ok := s.rule("mapname", text); ok {
		res.Map = m
	}
	kv := func(k, v string) { res.Info = append(res.Info, protocols.KV{Key: k, Value: v}) }
	kv("variant", s.variant)
	if in.version != nil {
		kv("version_name", text(in.version))
	}
	kv("password", strconv.FormatBool(in.password))
	kv("players", strconv.Itoa(int(in.players)))
	kv("max_players", strconv.Itoa(int(in.max)))
	kv("hostname", res.Name)
	kv("gamemode", res.Game)
	kv(third, text(in.third))
	if in.trailing > 0 {
		kv("trailing_bytes", strconv.Itoa(in.trailing))
	}
	if e := s.extra; e != nil {
		kv("discord", text(e.discord))
		kv("banner_light", text(e.bannerLight))
		kv("banner_dark", text(e.bannerDark))
		kv("logo", text(e.logo))
	}
	if withRules && s.rules != nil {
		res.Rules = make([]protocols.KV, len(s.rules))
		for i, r := range s.rules {
			res.Rules[i] = protocols.KV{Key: text(r[0]), Value: text(r[1])}
		}
	}
	return res
}

// playerList converts decoded records; a client list has no ping.
func playerList(ps []player, text func([]byte) string) []protocols.Player {
	out := make([]protocols.Player, len(ps))
	for i, p := range ps {
		out[i].Name = text(p.name)
		if p.hasScore {
			out[i].Score = protocols.Known(int64(p.score))
		}
		if p.hasPing {
			out[i].Ping = protocols.Known(int64(p.ping))
		}
	}
	return out
}
