package discord

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const guild = "290926798626357999"

// The target of every test: a documentation address that is never contacted.
var target = netip.MustParseAddrPort("203.0.113.10:443")

// fakeDiscord answers GET /api/guilds/{id}/widget.json as Discord does: the
// widget of the guild it knows (a vector), 403 code 50004 for a guild whose
// widget is off, 404 code 10004 for any other id.
type fakeDiscord struct {
	t        testing.TB
	widget   []byte
	disabled string // a known guild with its widget off
	hook     func(w http.ResponseWriter, r *http.Request) bool
	requests atomic.Int32
	lastPath atomic.Value
}

func newFake(t testing.TB) *fakeDiscord {
	return &fakeDiscord{t: t, widget: prototest.File(t, "widget_basic.json"), disabled: "111111111111111111"}
}

func (f *fakeDiscord) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	f.lastPath.Store(r.URL.RequestURI())
	if f.hook != nil && f.hook(w, r) {
		return
	}
	id, ok := strings.CutPrefix(r.URL.Path, "/api/guilds/")
	id, ok2 := strings.CutSuffix(id, "/widget.json")
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method != http.MethodGet || !ok || !ok2:
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"message": "404: Not Found", "code": 0}`))
	case id == guild:
		w.Write(f.widget)
	case id == f.disabled:
		w.WriteHeader(http.StatusForbidden)
		w.Write(prototest.File(f.t, "error_widget_disabled.json"))
	default:
		w.WriteHeader(http.StatusNotFound)
		w.Write(prototest.File(f.t, "error_unknown_guild.json"))
	}
}

// api is the protocol's API, for its tests.
var api = prototest.OffTarget[*querier, Options]{Protocol: Protocol, API: func(q *querier) *protocols.API { return &q.api }}

// The whole exchange over TLS: the guild's widget, its members as players
// when the module asks for them.
func TestQuery(t *testing.T) {
	for players, list := range map[bool]string{true: "[Player One Zweiter Spieler ü third]", false: "-"} {
		t.Run(fmt.Sprint("players=", players), func(t *testing.T) {
			f := newFake(t)
			srv, _ := prototest.HTTP(t, f, true)
			q := api.Against(t, srv, Options{GuildID: guild}, protocols.Settings{Players: players})
			res, tr, err := prototest.QueryWithin(t, q, target, 2*time.Second)
			prototest.CheckProbe(t, res, tr, err, `"Example Gaming Community" "" "" "" 3/? bots ? pw 0 `+list+` rules - info 4 partial [] | info:ok skipped 0 log 0`)
			prototest.CheckBots(t, res, 3, prototest.Unknown, false) // presence_count counts bot accounts too, nothing marks them
			if p := f.lastPath.Load(); p != "/api/guilds/"+guild+"/widget.json" || f.requests.Load() != 1 || tr.Attempts != 1 {
				t.Errorf("%d requests (%d attempts), last %v", f.requests.Load(), tr.Attempts, p)
			}
		})
	}
}

func TestQueryFailures(t *testing.T) {
	type failure struct {
		name  string
		guild string
		hook  func(w http.ResponseWriter, r *http.Request) bool
		want  error
		msg   string
	}
	cases := []failure{
		{"no guild_id", "", nil, wire.ErrServer, `the module names no guild (discord: {guild_id: "..."})`},
		{"unknown guild", "123", nil, wire.ErrServer, "Discord knows no guild 123 (HTTP 404, code 10004): check guild_id"},
		{"widget disabled", "111111111111111111", nil, wire.ErrServer,
			"guild 111111111111111111's widget is disabled (HTTP 403, code 50004): an admin turns on Server Settings > Widget > Enable Server Widget"},
		{"rate limited", guild, func(w http.ResponseWriter, r *http.Request) bool {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write(prototest.File(t, "error_rate_limited.json"))
			return true
		}, wire.ErrServer, "rate-limits the widget requests (HTTP 429)"},
		{"other API error", guild, prototest.HookReply(http.StatusForbidden, `{"message": "Missing Access", "code": 50001}`),
			wire.ErrServer, "Discord widget: HTTP 403 (code 50001)"},
		{"bare 404", guild, func(w http.ResponseWriter, r *http.Request) bool { http.NotFound(w, r); return true },
			wire.ErrServer, "knows no guild " + guild + " (HTTP 404, code 0)"},
		{"html error page", guild, prototest.HookReply(http.StatusBadGateway, "<html>proxy page</html>"), wire.ErrServer, "HTTP 502 Bad Gateway"},
		{"another guild's widget", guild, prototest.HookReply(http.StatusOK, `{"id":"42","name":"Other","presence_count":1}`),
			wire.ErrMismatch, `asked for guild ` + guild + `, the widget is guild "42"'s`},
		{"not a widget", guild, prototest.HookReply(http.StatusOK, `{"id":"`+guild+`"}`), wire.ErrMalformed, "widget without a name"},
	}
	for _, h := range prototest.HTTPHazards(t, maxBody) {
		cases = append(cases, failure{h.Name, guild, prototest.Hook(h.Handler), h.Want, h.Msg})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			f.hook = c.hook
			srv, _ := prototest.HTTP(t, f, false)
			q := api.Against(t, srv, Options{GuildID: c.guild}, protocols.Settings{Players: true})
			res, tr, err := prototest.QueryWithin(t, q, target, 500*time.Millisecond)
			prototest.CheckFailed(t, res, err, c.want, c.msg, "proxy page", "Missing Access", prototest.Unquoted)
			if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" {
				t.Errorf("phases %+v", tr.Phases)
			}
			if c.guild == "" && f.requests.Load() != 0 {
				t.Errorf("%d requests without a guild", f.requests.Load())
			}
		})
	}
}

// Discord's certificate is verified: a fake signed by an unknown CA is refused.
func TestQueryTLSVerified(t *testing.T) {
	f := newFake(t)
	srv, _ := prototest.HTTP(t, f, true)
	q := api.Against(t, srv, Options{GuildID: guild}, protocols.Settings{})
	prototest.UntrustedRefused(t, q, &q.api, f.requests.Load)
}

// The request goes to Discord whatever the target: the querier's base is
// discord.com over https, and no target, host name or option changes it.
func TestBaseFixed(t *testing.T) {
	api.Fixed(t, Options{GuildID: guild}, "https://discord.com")
}

func TestNewOptions(t *testing.T) {
	prototest.NewOptions(t, newQuerier, []prototest.OptionsCase[Options]{
		{Options: Options{}},
		{Options: Options{GuildID: guild}},
		{Options: Options{GuildID: "../../users/@me"}, Bad: "numeric id"},
		{Options: Options{GuildID: "123456789012345678901"}, Bad: "numeric id"},
		{Options: Options{GuildID: guild, CAFile: "/nonexistent/ca.pem"}, Bad: "ca_file"},
	})
}

// The contract's fake servers (a closed port, a silent one) stand for Discord.
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: api.Probed(), Name: "discord", DefaultPort: 443, Transport: "tcp",
		Settings: protocols.Settings{Options: prototest.OptionsOf(Options{GuildID: guild})},
	})
}
