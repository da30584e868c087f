package bedrock

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Every vector in testdata/ echoes this time and carries this server GUID.
const (
	vecTime int64  = 0x0000018f3a5c7e91
	vecGUID uint64 = 0xa5b10c2f44e6138d
)

func vec(t testing.TB, name string) []byte { return prototest.HexFile(t, name+".hex") }

type want struct {
	name, level, version string
	players, max         protocols.Count
	info                 map[string]string // Info keys checked (others not)
	fields               int               // number of fields kept
}

var goodVectors = map[string]want{
	"bds_full": {
		name: "Dedicated Server", level: "Bedrock level", version: "1.21.50",
		players: protocols.Known(3), max: protocols.Known(10), fields: 12,
		info: map[string]string{
			"raknet_guid": "11939337484294820749", "edition": "MCPE", "motd": "§a§lDedicated §rServer",
			"protocol": "766", "server_id": "11939138312187839373", "level_name": "Bedrock level",
			"gamemode": "Survival", "gamemode_numeric": "1", "port_v4": "19132", "port_v6": "19133",
		},
	},
	"geyser": {
		name: "Geyser Proxy", level: "Geyser", version: "1.21.20",
		players: protocols.Known(0), max: protocols.Known(100), fields: 12,
		info: map[string]string{"level_name": "§eGeyser", "protocol": "712"},
	},
	"education": {
		name: "Classroom 4B", level: "World", version: "1.19.51",
		players: protocols.Known(1), max: protocols.Known(30), fields: 9,
		info: map[string]string{"edition": "MCEE", "gamemode": "Creative"},
	},
	"six_fields": {
		name: "Old PocketMine", version: "0.14.3", players: protocols.Known(2), max: protocols.Known(20), fields: 6,
		info: map[string]string{"max_players": "20", "level_name": ""},
	},
	"escaped_semicolon": {
		name: "Fun;Games", level: "lvl;2", version: "1.21.50",
		players: protocols.Known(4), max: protocols.Known(8), fields: 12,
		info: map[string]string{"port_v6": "19133;", "gamemode": "Adventure"},
	},
	"latin1": {
		name: "Café Rouge", version: "1.21.50", players: protocols.Known(0), max: protocols.Known(5), fields: 6,
		info: map[string]string{"motd": "Café §cRouge"},
	},
	"odd_counts": {
		name: "Odd", level: "w", version: "1.21.50", fields: 9,
		info: map[string]string{"players": "-1", "max_players": "lots"},
	},
	"trailing_bytes": {
		name: "T", version: "1.21.50", players: protocols.Known(1), max: protocols.Known(2), fields: 6,
		info: map[string]string{"trailing_bytes": "2"},
	},
	"empty_fields": {
		players: protocols.Known(0), max: protocols.Known(0), fields: 9,
		info: map[string]string{"motd": "", "version": "", "gamemode": ""},
	},
	"many_fields": {
		name: "Many", level: "lvl", version: "1.21.50", players: protocols.Known(1), max: protocols.Known(2), fields: maxFields,
		info: map[string]string{"field_12": "x0", "field_31": "x19", "fields_dropped": "8", "port_v6": "19133"},
	},
}

var badVectors = map[string]struct {
	decode error // what decode fails with
	skip   error // what answers says: nil when the querier takes it as the answer (and fails)
}{
	"err_header_cut":   {wire.ErrTruncated, nil},
	"err_lying_length": {wire.ErrTruncated, nil},
	"err_too_large":    {wire.ErrTooLarge, nil},
	"err_one_field":    {wire.ErrMalformed, nil},
	"err_empty_string": {wire.ErrMalformed, nil},
	"err_wrong_magic":  {wire.ErrMalformed, wire.ErrMalformed},
	"err_ping":         {wire.ErrMalformed, wire.ErrMalformed},
	"err_empty":        {wire.ErrMalformed, wire.ErrMalformed},
}

// Every file in testdata/ has a row in one of the tables.
func TestVectorsListed(t *testing.T) {
	for _, name := range prototest.Names(t, ".hex") {
		_, good := goodVectors[name]
		if _, bad := badVectors[name]; good == bad {
			t.Errorf("%s: in both tables or in none", name)
		}
	}
}

func TestDecodeGood(t *testing.T) {
	for name, w := range goodVectors {
		t.Run(name, func(t *testing.T) {
			b := vec(t, name)
			if err := answers(b, vecTime); err != nil {
				t.Fatalf("answers: %v", err)
			}
			p, err := decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if p.time != vecTime || p.guid != vecGUID || len(p.fields) != w.fields {
				t.Errorf("time %#x guid %#x fields %d, want %#x %#x %d", p.time, p.guid, len(p.fields), vecTime, vecGUID, w.fields)
			}
			res := p.result()
			if res.Name != w.name || res.Map != w.level || res.Version != w.version {
				t.Errorf("name/map/version = %q %q %q, want %q %q %q", res.Name, res.Map, res.Version, w.name, w.level, w.version)
			}
			if res.Players != w.players || res.MaxPlayers != w.max {
				t.Errorf("players %+v / %+v, want %+v / %+v", res.Players, res.MaxPlayers, w.players, w.max)
			}
			// Players is the pong's count as sent; it knows no bots.
			if res.Game != "" || res.Bots.Known || res.Password != protocols.FlagUnknown || res.PlayerList != nil {
				t.Errorf("reports what the pong does not hold: %+v", res)
			}
			info := map[string]string{}
			kv := res.InfoKV()
			for _, e := range kv {
				info[e.Key] = e.Value
			}
			if kv[0].Key != "raknet_guid" || kv[1].Key != "edition" || kv[2].Key != "motd" {
				t.Errorf("info not in wire order: %q", kv[:3])
			}
			for k, v := range w.info {
				if got, ok := info[k]; !ok && v != "" || got != v {
					t.Errorf("info %s = %q (present %v), want %q", k, got, ok, v)
				}
			}
			prototest.CheckUTF8(t, &protocols.Result{Name: res.Name, Map: res.Map, Version: res.Version, Info: kv})
		})
	}
}

func TestDecodeBad(t *testing.T) {
	for name, w := range badVectors {
		t.Run(name, func(t *testing.T) {
			b := vec(t, name)
			p, err := decode(b)
			if !errors.Is(err, w.decode) || p != nil {
				t.Errorf("decode = %v, %v; want %v", p, err, w.decode)
			}
			skip := answers(b, vecTime)
			if w.skip == nil && skip != nil || w.skip != nil && !errors.Is(skip, w.skip) {
				t.Errorf("answers = %v, want %v", skip, w.skip)
			}
		})
	}
}

// A pong echoing another time answers someone else's ping: skipped as a mismatch,
// whether it is whole or cut right after the time.
func TestAnswersTime(t *testing.T) {
	b := vec(t, "bds_full")
	for _, n := range []int{len(b), 9} {
		if err := answers(b[:n], vecTime+1); !errors.Is(err, wire.ErrMismatch) {
			t.Errorf("%d bytes, other time: %v, want mismatch", n, err)
		}
	}
	// Cut before the time ends: nothing to compare yet, decode says truncated.
	if err := answers(b[:5], vecTime+1); err != nil {
		t.Errorf("5 bytes: %v", err)
	}
	if _, err := decode(b[:5]); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("decode 5 bytes: %v", err)
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a;", []string{"a"}},
		{"a;;", []string{"a", ""}},
		{"a;b", []string{"a", "b"}},
		{`a\;b;c`, []string{"a;b", "c"}},
		{`a\;b\;c;d\;`, []string{"a;b;c", "d;"}},
		{`a\b;c\`, []string{`a\b`, `c\`}},
		{`\;`, []string{";"}},
	} {
		got, dropped := split(tc.in)
		if !slices.Equal(got, tc.want) || dropped != 0 {
			t.Errorf("split(%q) = %q, %d; want %q", tc.in, got, dropped, tc.want)
		}
	}
	got, dropped := split(strings.Repeat("x;", maxFields+5))
	if len(got) != maxFields || dropped != 5 {
		t.Errorf("%d fields kept, %d dropped", len(got), dropped)
	}
}

func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"  plain  ":        "plain",
		"§a§lBold §rgreen": "Bold green",
		"end§":             "end",
		"§§x":              "x",
		"§ü umlaut":        "umlaut",
		"€§x€":             "€€",
	} {
		if got := plain(in); got != want {
			t.Errorf("plain(%q) = %q, want %q", in, got, want)
		}
	}
}

// The ping is the layout of the docs: 01, time, magic, client GUID.
func TestPing(t *testing.T) {
	got := ping(vecTime, 7)
	want := prototest.HexFile(t, "err_ping.hex")
	if string(got) != string(want) {
		t.Errorf("ping = % x\nwant   % x", got, want)
	}
}
