package master

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func aps(ss ...string) []netip.AddrPort {
	out := make([]netip.AddrPort, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParseAddrPort(s)
	}
	return out
}

// TestDecodeDatagrams reads the UDP masters' replies: the addresses, and
// whether the list ends with this datagram.
func TestDecodeDatagrams(t *testing.T) {
	type decoder = func([]byte) ([]netip.AddrPort, bool, error)
	quake3 := func(ext bool) decoder {
		return func(b []byte) ([]netip.AddrPort, bool, error) { return decodeQuake3(b, ext) }
	}
	qw := func(b []byte) ([]netip.AddrPort, bool, error) { a, err := decodeQuakeWorld(b); return a, false, err }
	cases := []struct {
		vec     string
		decode  decoder
		want    []netip.AddrPort
		end     bool
		wantErr error
	}{
		{"steam_page", decodeSteamPage, aps("192.0.2.1:27015", "192.0.2.2:27016"), false, nil},
		{"steam_last", decodeSteamPage, aps("198.51.100.7:27960"), true, nil},
		{"steam_cut", decodeSteamPage, nil, false, wire.ErrTruncated},
		{"steam_other", decodeSteamPage, nil, false, errNotSteam},
		{"quake3_v4", quake3(false), aps("192.0.2.1:27960", "203.0.113.5:23661"), true, nil},
		{"quake3_more", quake3(false), aps("192.0.2.3:27960"), false, nil},
		{"quake3_ext", quake3(true), aps("192.0.2.1:27960", "[2001:db8::1]:27961"), true, nil},
		{"quake3_ext", quake3(false), nil, false, errNotQuake3}, // an Ext reply to a plain query
		{"quake3_v4", quake3(true), nil, false, errNotQuake3},
		{"quake3_cut", quake3(false), nil, false, wire.ErrTruncated},
		{"quake3_junk", quake3(false), nil, false, wire.ErrMalformed},
		{"quakeworld", qw, aps("192.0.2.1:27960", "198.51.100.7:28001"), false, nil},
		{"quakeworld_cut", qw, nil, false, wire.ErrTruncated},
	}
	for _, c := range cases {
		t.Run(c.vec, func(t *testing.T) {
			got, end, err := c.decode(prototest.VecFile(t, c.vec))
			if !errors.Is(err, c.wantErr) || c.wantErr == nil && err != nil {
				t.Fatalf("err %v, want %v", err, c.wantErr)
			}
			if !slices.Equal(got, c.want) || end != c.end {
				t.Fatalf("got %v end %v, want %v end %v", got, end, c.want, c.end)
			}
		})
	}
	// An IPv6 entry in a plain reply is a lie, not an address.
	b := append([]byte("\xff\xff\xff\xffgetserversResponse/"), make([]byte, 18)...)
	if _, _, err := decodeQuake3(b, false); !errors.Is(err, wire.ErrMalformed) {
		t.Fatalf("IPv6 entry in getserversResponse: %v", err)
	}
	if _, err := decodeQuakeWorld([]byte("\xff\xff\xff\xffn\\hostname\\x")); err != errNotQuakeWorld {
		t.Fatalf("other reply: %v", err)
	}
}

func TestDecodeDDNet(t *testing.T) {
	c := newCollector(100)
	if err := decodeDDNet(bytes.NewReader(prototest.File(t, "ddnet.json")), c); err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Addr: netip.MustParseAddrPort("192.0.2.1:8303"), Name: "DDNet GER10 [DDraceNetwork] - Novice", Map: "Sunny Side Up",
			Game: "DDraceNetwork", Version: "0.6.4, 18.4", Country: "DE", Players: protocols.Known(2), Max: protocols.Known(64), Password: protocols.FlagFalse},
		{Addr: netip.MustParseAddrPort("[2001:db8::2]:8304"), Name: "日本 CTF", Map: "ctf5", Game: "CTF", Version: "0.6.4",
			Country: "JP", Players: protocols.Known(0), Max: protocols.Known(16), Password: protocols.FlagTrue},
	}
	if !slices.Equal(c.done(nil).Entries, want) {
		t.Fatalf("got %+v\nwant %+v", c.done(nil).Entries, want)
	}
	if c.list.Skipped != 2 || c.list.Capped {
		t.Fatalf("skipped %d (want the one without an address and the repeat), capped %v", c.list.Skipped, c.list.Capped)
	}
}

func TestDecodeHTTPJSON(t *testing.T) {
	flat := Fields{Address: "ip", Port: "port", Name: "hostname", Players: "players", Max: "maxplayers", Game: "gamemode", Country: "country", Password: "password"}
	nested := Fields{List: "data.servers", Address: "addr.host", Port: "addr.port", Name: "info.name", Map: "info.map",
		Players: "info.players.now", Max: "info.players.max", Password: "info.pw"}
	cases := []struct {
		file    string
		fields  Fields
		want    []Entry
		skipped int
	}{
		{"httpjson_flat.json", flat, []Entry{
			{Addr: netip.MustParseAddrPort("192.0.2.10:7777"), Name: "Open MP Roleplay", Game: "RP", Country: "US", Players: protocols.Known(12), Max: protocols.Known(100)},
			{Addr: netip.MustParseAddrPort("192.0.2.11:7778"), Name: "with port in address", Players: protocols.Known(3), Max: protocols.Known(50)},
			{Host: "play.example.org:30000", Name: "by name", Password: protocols.FlagTrue},
		}, 3},
		{"httpjson_nested.json", nested, []Entry{
			{Addr: netip.MustParseAddrPort("203.0.113.20:27015"), Name: "nested", Map: "TheIsland", Players: protocols.Known(5), Max: protocols.Known(70), Password: protocols.FlagFalse},
			{Addr: netip.MustParseAddrPort("[2001:db8::20]:27016"), Name: "v6", Players: protocols.Known(0), Max: protocols.Known(10), Password: protocols.FlagTrue},
		}, 0},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			f, err := c.fields.paths()
			prototest.NoError(t, err)
			col := newCollector(100)
			if err := decodeHTTPJSON(bytes.NewReader(prototest.File(t, c.file)), f, col); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(col.done(nil).Entries, c.want) || col.list.Skipped != c.skipped {
				t.Fatalf("got %+v skipped %d\nwant %+v skipped %d", col.done(nil).Entries, col.list.Skipped, c.want, c.skipped)
			}
		})
	}
}

// TestDecodeJSONErrors: documents that are not the list say why.
func TestDecodeJSONErrors(t *testing.T) {
	f, _ := Fields{List: "servers", Address: "ip"}.paths()
	cases := []struct {
		name, body string
		want       error
	}{
		{"cut in an element", `{"servers":[{"ip":"192.0.2.1:1"},{"ip":`, wire.ErrTruncated},
		{"cut before the array", `{"serv`, wire.ErrTruncated},
		{"no such key", `{"other":[]}`, wire.ErrMalformed},
		{"not an array", `{"servers":{"ip":"192.0.2.1:1"}}`, wire.ErrMalformed},
		{"not JSON", `<html>`, wire.ErrMalformed},
		{"cut in the array", `{"servers":[{"ip":"192.0.2.1:1"}`, wire.ErrTruncated},
		{"no comma", `{"servers":[{"ip":"192.0.2.1:1"} {}]}`, wire.ErrMalformed},
		{"nested too deep on the way", `{"a":` + strings.Repeat("[", maxDepth+1), wire.ErrMalformed},
		{"key too long", `{"` + strings.Repeat("k", maxValue+1) + `":1}`, wire.ErrTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := decodeHTTPJSON(bytes.NewReader([]byte(c.body)), f, newCollector(10))
			if !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
		})
	}
}

// TestCollector: repeats and unusable addresses are skipped, the cap is kept.
func TestCollector(t *testing.T) {
	c := newCollector(3)
	for _, a := range aps("192.0.2.1:1", "192.0.2.1:1", "0.0.0.0:5", "192.0.2.2:0", "224.0.0.1:5", "[::ffff:192.0.2.1]:1", "192.0.2.3:3", "192.0.2.4:4", "192.0.2.5:5") {
		c.addr(a)
	}
	if got := len(c.done(nil).Entries); got != 3 || !c.list.Capped || c.list.Skipped != 5 {
		t.Fatalf("%d entries, capped %v, skipped %d: %+v", got, c.list.Capped, c.list.Skipped, c.done(nil).Entries)
	}
}

// seeds adds every testdata vector (decoded) and JSON file to f.
func seeds(f *testing.F) {
	for _, b := range prototest.AllVecs(f) {
		f.Add(b)
	}
	files, _ := filepath.Glob("testdata/*.json")
	txt, _ := filepath.Glob("testdata/*.txt")
	files = append(files, txt...)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzDecodeDatagrams: no datagram panics a UDP decoder, and no decoder returns
// more entries than the datagram holds or addresses and an error together.
func FuzzDecodeDatagrams(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		if a, _, err := decodeSteamPage(b); err != nil && a != nil || len(a) > len(b)/6 {
			t.Fatalf("steam: %d entries from %d bytes, err %v", len(a), len(b), err)
		}
		for _, ext := range []bool{false, true} {
			if a, _, err := decodeQuake3(b, ext); err != nil && a != nil || len(a) > len(b)/7 {
				t.Fatalf("quake3: %d entries from %d bytes, err %v", len(a), len(b), err)
			}
		}
		if a, err := decodeQuakeWorld(b); err != nil && a != nil || len(a) > len(b)/6 {
			t.Fatalf("quakeworld: %d entries from %d bytes, err %v", len(a), len(b), err)
		}
	})
}

// FuzzDecodeJSON: no body panics the JSON decoders (the panel's too, and
// Geneshift's text decoder) or breaks the cap, and every entry they keep is
// addressable and valid UTF-8.
func FuzzDecodeJSON(f *testing.F) {
	seeds(f)
	decoders := listDecoders(f)
	maps.Copy(decoders, map[string]func(io.Reader, *collector) error{
		"geneshift": decodeGeneshift,
		"gta5r":     presetDecoder(f, "gta5r"),  // array indexes
		"beammp":    presetDecoder(f, "beammp"), // colour codes
		"ragemp":    decodeRageMP,               // groups
		"scum":      decodeSCUMStream,           // binary records
	})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, decode := range decoders {
			c := newCollector(3)
			decode(bytes.NewReader(b), c)
			if len(c.done(nil).Entries) > 3 {
				t.Fatalf("%d entries past the cap", len(c.done(nil).Entries))
			}
			for _, e := range c.done(nil).Entries {
				if e.Host == "" && !usable(e.Addr) || e.Host != "" && e.Addr.IsValid() {
					t.Fatalf("entry without one usable address: %+v", e)
				}
				if names := strings.Split(e.PlayerNames, "\n"); len(names) > maxNames || len(e.PlayerNames) > maxNames*(maxNameLen+1) {
					t.Fatalf("%d player names, %d bytes", len(names), len(e.PlayerNames))
				}
				for _, s := range []string{e.Name, e.Map, e.Game, e.Version, e.Country, e.Host, e.PlayerNames} {
					if !utf8.ValidString(s) {
						t.Fatalf("invalid UTF-8 %q", s)
					}
				}
				if e.Players.Known && e.Players.Value < 0 || e.Max.Known && e.Max.Value < 0 {
					t.Fatalf("negative count %+v", e)
				}
			}
		}
	})
}
