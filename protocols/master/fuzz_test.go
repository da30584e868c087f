package master

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

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
	flat, _ := Fields{Address: "ip", Port: "port", Name: "hostname", Players: "players", Max: "maxplayers", Password: "password", Country: "country",
		PlayerNames: "playerslist"}.paths()
	nested, _ := Fields{List: "data.servers", Address: "addr.host", Port: "addr.port", Name: "info.name", Players: "info.players.now"}.paths()
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, decode := range []func(io.Reader, *collector) error{
			decodeDDNet,
			decodeSteamWeb,
			func(r io.Reader, c *collector) error { return decodeHTTPJSON(r, flat, c) },
			func(r io.Reader, c *collector) error { return decodeHTTPJSON(r, nested, c) },
			decodeGeneshift,
			presetDecoder(t, "gta5r"),  // array indexes
			presetDecoder(t, "beammp"), // colour codes
			decodeRageMP,               // groups
			decodeSCUMStream,           // binary records
			func(r io.Reader, c *collector) error { _, err := decodePterodactyl(r, c); return err },
		} {
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

// FuzzDecodeFile: no file panics the file decoder; it keeps no more targets
// than the file has lines, each a usable address or a host name with a port,
// and an error never quotes the file.
func FuzzDecodeFile(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		c := newCollector(3)
		err := decodeFile(b, c)
		l := c.done(nil)
		if len(l.Entries) > 3 || len(l.Entries) > bytes.Count(b, []byte("\n"))+1 {
			t.Fatalf("%d entries from %d lines", len(l.Entries), bytes.Count(b, []byte("\n"))+1)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "malformed: line ") {
			t.Fatalf("error %q", err)
		}
		for _, e := range l.Entries {
			if e.Host == "" && !usable(e.Addr) || e.Host != "" && (e.Addr.IsValid() || !utf8.ValidString(e.Host)) {
				t.Fatalf("entry without one usable address: %+v", e)
			}
		}
	})
}
