package master

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// presetDecoder is the decoder a preset's list is read with.
func presetDecoder(t testing.TB, name string) func(io.Reader, *collector) error {
	p, ok := LookupPreset(name)
	if !ok {
		t.Fatalf("no preset %s", name)
	}
	switch p.Type {
	case TypeGeneshift:
		return decodeGeneshift
	case TypeRageMP:
		return decodeRageMP
	case TypeSCUM:
		return decodeSCUMStream
	}
	f, err := p.Fields.paths()
	prototest.NoError(t, err)
	f.codes = p.Codes
	return func(r io.Reader, c *collector) error { return decodeHTTPJSON(r, f, c) }
}

func vector(t *testing.T, name string) []byte {
	t.Helper()
	if _, err := os.Stat("testdata/preset_" + name + ".vec"); err == nil {
		return prototest.VecFile(t, "preset_"+name) // a binary list
	}
	for _, ext := range []string{".json", ".txt"} {
		if b, err := os.ReadFile("testdata/preset_" + name + ext); err == nil {
			return b
		}
	}
	t.Fatalf("no vector for preset %s", name)
	return nil
}

// TestPresetDecode reads each preset's vector (built from the cited shape)
// with the preset's decoder and field map.
func TestPresetDecode(t *testing.T) {
	k, f, u := protocols.Known, protocols.FlagFalse, protocols.FlagUnknown
	ap := netip.MustParseAddrPort
	cases := []struct {
		preset  string
		want    []Entry
		skipped int
	}{
		{"arksa", []Entry{{Addr: ap("192.0.2.80:7777"), Name: "Community Island PvE", Map: "TheIsland_WP", Version: "74", Players: k(12), Max: k(70)}}, 0},
		{"beammp", []Entry{
			{Addr: ap("192.0.2.10:30814"), Name: "Test Drift Server", Map: "/levels/gridmap_v2/info.json", Version: "3.4.1", Players: k(3), Max: k(8), Password: f, PlayerNames: "a\nb\nc"},
			{Addr: ap("192.0.2.11:30815"), Name: "Locked", Map: "/levels/utah/info.json", Version: "3.4.1", Players: k(0), Max: k(10), Password: protocols.FlagTrue},
		}, 1},
		{"brokeprotocol", []Entry{
			{Addr: ap("192.0.2.60:5557"), Name: "Red City RP", Map: "Default", Version: "1.4", Players: k(17), Max: k(64)},
			{Addr: ap("192.0.2.61:5558"), Name: "Quiet", Map: "Island", Version: "1.4", Players: k(0), Max: k(32)},
		}, 0},
		{"factorio", []Entry{
			{Addr: ap("192.0.2.100:34197"), Name: "Space Age megabase", Version: "2.0.23", Players: k(2), Max: k(0), Password: f, PlayerNames: "alice\nbob"},
			{Addr: ap("192.0.2.101:34198"), Name: "Locked", Version: "1.1.110", Max: k(16), Password: protocols.FlagTrue},
		}, 0},
		{"geneshift", []Entry{
			{Addr: ap("192.0.2.90:11235"), Country: "US", Name: "Gangster Paradise", Map: "Downtown", Version: "5.2.1", Players: k(6), Max: k(16)},
			{Addr: ap("192.0.2.91:11236"), Country: "DE", Name: "Ruhig", Map: "Harbor", Version: "5.2.0", Players: k(0), Max: k(8)},
		}, 1},
		{"gta5am", []Entry{
			{Addr: ap("192.0.2.40:7788"), Name: "Roleplay City", Version: "16.0", Players: k(120), Max: k(1000), Password: f},
			{Addr: ap("192.0.2.41:7790"), Name: "URL form", Version: "16.0", Players: k(3), Max: k(50), Password: protocols.FlagTrue},
			{Host: "cdn.example.com:7788", Name: "Behind CDN", Version: "16.0", Players: k(9), Max: k(100), Password: u},
		}, 0},
		{"gta5r", []Entry{
			{Addr: ap("192.0.2.50:22005"), Name: "Freeroam", Players: k(42), Max: k(500)},
			{Host: "gta.example.org:22006", Name: "Named host", Players: k(1), Max: k(100)},
			{Addr: ap("192.0.2.52:22005")},
			// a group: its id names its first server, and each nested server is its own
			{Addr: ap("192.0.2.53:22005"), Name: "Group RP #1", Players: k(88), Max: k(300)},
			{Addr: ap("192.0.2.54:22005"), Name: "Group RP #2", Players: k(12), Max: k(300)},
			{Addr: ap("192.0.2.55:22007"), Name: "Group RP #3 (testing)", Players: k(0), Max: k(50)},
			// a group under a name: only its nested servers are servers
			{Addr: ap("192.0.2.56:22005"), Name: "Community A", Players: k(5), Max: k(100)},
			{Addr: ap("192.0.2.57:22005"), Name: "Community B", Players: k(6), Max: k(100)},
			// an entry whose first server has another id: gamedig gives both that status
			{Addr: ap("192.0.2.58:22005"), Name: "First of another", Players: k(2), Max: k(10)},
			{Addr: ap("192.0.2.59:22005"), Name: "First of another", Players: k(2), Max: k(10)},
		}, 1},
		{"minetest", []Entry{
			{Host: "play.example.org:30000", Name: "Luanti world", Game: "mineclone2", Version: "5.9.0", Players: k(4), Max: k(20), Password: f, PlayerNames: "a\nb\nc\nd"},
			{Addr: ap("192.0.2.20:30001"), Name: "Empty", Game: "minetest", Version: "5.8.0", Players: k(0), Max: k(15)},
		}, 0},
		{"scum", []Entry{
			{Addr: ap("192.0.2.110:7044"), Name: "SCUM Island PvE", Version: "0.9.604.86373", Players: k(37), Max: k(64), Password: f},
			{Addr: ap("192.0.2.111:7779"), Name: "Locked – Zone Z4", Version: "1.0.1.2", Players: k(0), Max: k(32), Password: protocols.FlagTrue},
		}, 1},
		{"renegadex", []Entry{{Addr: ap("192.0.2.70:7777"), Name: "Marathon Server", Map: "CNC-Field", Version: "Open Beta 5.89.877", Players: k(24), Max: k(64), Password: f}}, 0},
		{"vintagestory", []Entry{
			{Addr: ap("192.0.2.30:42421"), Name: "Vintage Village", Version: "1.20.4", Players: k(5), Max: k(16), Password: f},
			{Host: "vs.example.net:42420", Name: "Default port", Version: "1.20.3", Players: k(0), Max: k(8), Password: protocols.FlagTrue},
		}, 0},
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		seen[tc.preset] = true
		t.Run(tc.preset, func(t *testing.T) {
			c := newCollector(100)
			if err := presetDecoder(t, tc.preset)(bytes.NewReader(vector(t, tc.preset)), c); err != nil {
				t.Fatal(err)
			}
			l := c.done(nil)
			if !slices.Equal(l.Entries, tc.want) || l.Skipped != tc.skipped {
				t.Fatalf("%d skipped, entries\n%+v\nwant %d skipped, entries\n%+v", l.Skipped, l.Entries, tc.skipped, tc.want)
			}
		})
	}
	for _, n := range PresetNames() {
		if !seen[n] {
			t.Errorf("preset %s has no vector test", n)
		}
	}
}

// TestPresetList: a source naming a preset fetches the preset's list from the
// URL it gives (a loopback fake) with the preset's decoder.
func TestPresetList(t *testing.T) {
	for _, name := range PresetNames() {
		t.Run(name, func(t *testing.T) {
			body := vector(t, name)
			p, _ := LookupPreset(name)
			src := Source{Preset: name}
			if p.Credential {
				src.Username, src.TokenFile = "exporter", keyFile(t, "0123abcd")
			}
			if p.Type == TypeSCUM { // a TCP master: the request, then the list
				src.Address = scumMaster(t, body, nil).String()
			} else {
				srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if q := r.URL.Query(); p.Credential && (q.Get("username") != "exporter" || q.Get("token") != "0123abcd") {
						http.Error(w, "not signed in", http.StatusForbidden)
						return
					}
					if name == "geneshift" {
						w.Header().Set("Content-Type", "text/html") // what a PHP page says
					}
					w.Write(body)
				}), false)
				src.URL = srv.URL + "/list"
			}
			if got, err := list(t, src, 5*time.Second); err != nil || len(got.Entries) == 0 {
				t.Fatalf("%v, %+v", err, got)
			}
		})
	}
}

func TestPresetRejects(t *testing.T) {
	refused(t, []refusal{
		{Source{Preset: "nosuch"}, "unknown preset"},
		{Source{Preset: "beammp", Type: TypeDDNet}, "leave type unset"},
		{Source{Preset: "beammp", Fields: Fields{Address: "ip"}}, "leave fields unset"},
		{Source{Preset: "geneshift", Query: "x"}, "takes no query"},
		{Source{Type: TypeHTTPJSON, URL: "http://127.0.0.1/", Fields: Fields{Address: "ip", DefaultPort: 70000}}, "default_port"},
	})
	// Every preset's default URL is valid as it stands; one that signs in
	// wants its username and token, and only it takes them.
	tok := keyFile(t, "0123abcd")
	for _, n := range PresetNames() {
		p, _ := LookupPreset(n)
		_, err := New(Source{Preset: n})
		if p.Credential {
			if err == nil || !strings.Contains(err.Error(), "token_file") {
				t.Errorf("%s without a token: %v", n, err)
			}
			_, err = New(Source{Preset: n, Username: "exporter", TokenFile: tok})
		} else if _, err2 := New(Source{Preset: n, Username: "exporter", TokenFile: tok}); err2 == nil {
			t.Errorf("%s takes a token it does not need", n)
		}
		if err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	for _, tc := range []struct{ user, file, want string }{
		{"exporter", filepath.Join(t.TempDir(), "none"), "token_file"},
		{"exporter", keyFile(t, ""), "empty"},
		{"bad\nname", tok, "username"},
	} {
		if _, err := New(Source{Preset: "factorio", Username: tc.user, TokenFile: tc.file}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %q: %v, want %q", tc.user, tc.file, err, tc.want)
		}
	}
}

// TestTokenStaysHidden: a list that signs in sends the token to its URL only,
// and neither the trace, nor an error, nor %v shows it.
func TestTokenStaysHidden(t *testing.T) {
	const token = "5ecre7t0ken"
	var redirected atomic.Bool
	elsewhere, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { redirected.Store(true) }), false)
	srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/?"+r.URL.RawQuery, http.StatusFound)
	}), false)
	for _, u := range []string{srv.URL + "/get-games", "http://127.0.0.1:1/get-games"} {
		_, err := listHidden(t, Source{Preset: "factorio", URL: u, Username: "exporter", TokenFile: keyFile(t, token)}, token, 5*time.Second)
		if err == nil {
			t.Fatalf("%s: no error", u)
		}
		if !errors.Is(err, wire.ErrServer) && !errors.Is(err, wire.ErrRefused) && !errors.Is(err, wire.ErrNetwork) {
			t.Fatalf("%s: the error lost its reason: %v", u, err)
		}
	}
	if redirected.Load() {
		t.Fatal("a redirect took the token elsewhere")
	}
}

// TestGeneshiftRecordCap: an endless record fails as too large instead of
// being held whole.
func TestGeneshiftRecordCap(t *testing.T) {
	c := newCollector(10)
	err := decodeGeneshift(bytes.NewReader(bytes.Repeat([]byte("x"), 2*maxRecord)), c)
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("err %v", err)
	}
}

// FuzzDecodeGeneshift: Geneshift's text decoder keeps no more servers than the
// body has records (FuzzDecodeJSON holds it to the rest).
func FuzzDecodeGeneshift(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		c := newCollector(3)
		decodeGeneshift(bytes.NewReader(b), c)
		if n := len(c.done(nil).Entries); n > bytes.Count(b, recordSep)+1 {
			t.Fatalf("%d entries from %d records", n, bytes.Count(b, recordSep)+1)
		}
	})
}
