package master

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// body is a reader of prefix, n bytes of fill, then suffix, made up as it is
// read: the test's heap holds none of it.
type body struct {
	prefix, suffix string
	fill           byte
	n              int
}

func (b *body) Read(p []byte) (int, error) {
	w := 0
	if len(b.prefix) > 0 {
		w = copy(p, b.prefix)
		b.prefix = b.prefix[w:]
	}
	for ; w < len(p) && b.n > 0; w, b.n = w+1, b.n-1 {
		p[w] = b.fill
	}
	if w < len(p) && b.n == 0 {
		c := copy(p[w:], b.suffix)
		b.suffix = b.suffix[c:]
		w += c
	}
	if w == 0 {
		return 0, io.EOF
	}
	return w, nil
}

// listDecoders are every JSON list's decoder, by name (http_json's mapping
// many fields).
func listDecoders(t testing.TB) map[string]func(io.Reader, *collector) error {
	flat, _ := Fields{Address: "ip", Port: "port", Name: "hostname", Players: "players", Max: "maxplayers", Password: "password", Country: "country",
		PlayerNames: "playerslist"}.paths()
	nested, _ := Fields{List: "data.servers", Address: "addr.host", Port: "addr.port", Name: "info.name", Players: "info.players.now"}.paths()
	return map[string]func(io.Reader, *collector) error{
		"ddnet":           decodeDDNet,
		"steamweb":        decodeSteamWeb,
		"http_json flat":  func(r io.Reader, c *collector) error { return decodeHTTPJSON(r, flat, c) },
		"http_json path":  func(r io.Reader, c *collector) error { return decodeHTTPJSON(r, nested, c) },
		"preset minetest": presetDecoder(t, "minetest"),
		"pterodactyl":     func(r io.Reader, c *collector) error { _, err := decodePterodactyl(r, c); return err },
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// shrinkWindow sets maxValue to n for the test: bodies many windows long
// stay quick to walk under the race detector.
func shrinkWindow(t testing.TB, n int) {
	old := maxValue
	maxValue = n
	t.Cleanup(func() { maxValue = old })
}

// windowBound is what decoding any body may allocate: a few times the one
// element the walker holds (maxValue), its read buffer and the decoder's
// fixed costs, whatever the body's length.
func windowBound() uint64 { return uint64(6*maxValue + 2*readBuffer + 16<<10) }

// TestNestingAttack (issue 35, H2): `{"a": ` then 8 MiB of `[` fails at
// encoding/json's depth, having allocated a bounded amount (Token() kept a
// stack entry per bracket: ~28 bytes of heap per byte), in every list decoder.
func TestNestingAttack(t *testing.T) {
	for name, decode := range listDecoders(t) {
		var err error
		alloc := allocated(func() { err = decode(&body{prefix: `{"a": `, fill: '[', n: 8 << 20}, newCollector(10)) })
		if !errors.Is(err, wire.ErrMalformed) || !strings.Contains(err.Error(), "deeper than 10000") && !strings.Contains(err.Error(), "where") {
			t.Errorf("%s: %v", name, err)
		}
		if alloc > 1<<20 {
			t.Errorf("%s: %d KiB allocated for nesting ahead of the list", name, alloc>>10)
		}
	}
}

// TestHostileElements (issue 35, H2 and L1): an element nested past maxDepth,
// one longer than maxValue (a long string, a huge number) and one that does
// not decode cost themselves, counted by reason; the servers around them are
// served, and the heap holds at most one element's window.
func TestHostileElements(t *testing.T) {
	shrinkWindow(t, 16<<10)
	n := 16 * maxValue
	good := `{"addresses":["tw-0.6+udp://192.0.2.1:8303"],"info":{"name":"a"}},`
	last := `{"addresses":["tw-0.6+udp://192.0.2.2:8303"],"info":{"name":"b"}}]}`
	cases := []struct {
		name, prefix, suffix string
		fill                 byte
		n                    int
		reason               string
	}{
		{"deep", `{"servers":[` + good + `{"x":`, strings.Repeat("]", maxDepth+1) + `},` + last, '[', maxDepth + 1, SkipTooDeep},
		{"many windows deep", `{"servers":[` + good + `{"x":`, strings.Repeat("]", n) + `},` + last, '[', n, SkipTooDeep},
		{"long string", `{"servers":[` + good + `{"addresses":["`, `"]},` + last, 'a', n, SkipTooLarge},
		{"huge number", `{"servers":[` + good + `{"info":{"max_clients":`, `}},` + last, '9', n, SkipTooLarge},
		{"a string for a number", `{"servers":[` + good + `{"info":{"max_clients":"64"}}`, `,` + last, ' ', 0, SkipMalformed},
		{"a number for a server", `{"servers":[` + good + `1`, `,` + last, ' ', 0, SkipMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			col := newCollector(10)
			var err error
			alloc := allocated(func() {
				err = decodeDDNet(&body{prefix: c.prefix, suffix: c.suffix, fill: c.fill, n: c.n}, col)
			})
			l := col.done(nil)
			if err != nil || len(l.Entries) != 2 || l.Skipped != 1 || l.Skips[c.reason] != 1 {
				t.Fatalf("err %v, %d entries, skipped %v", err, len(l.Entries), l.Skips)
			}
			if alloc > windowBound() {
				t.Fatalf("%d KiB allocated for a %d KiB body", alloc>>10, c.n>>10)
			}
		})
	}
}

// TestHTTPJSONSkips (issue 35, L1): a number in an http_json array, and an
// object whose address is no address, cost one entry each.
func TestHTTPJSONSkips(t *testing.T) {
	f, _ := Fields{Address: "ip"}.paths()
	c := newCollector(10)
	err := decodeHTTPJSON(strings.NewReader(`[{"ip":"192.0.2.1:1"}, 7, {"ip":[]}, "x", {"ip":"192.0.2.2:2"}]`), f, c)
	l := c.done(nil)
	if err != nil || len(l.Entries) != 2 || l.Skips[SkipMalformed] != 2 || l.Skips[SkipNoAddress] != 1 {
		t.Fatalf("err %v, %d entries, skipped %v", err, len(l.Entries), l.Skips)
	}
}

// FuzzListWindow: whatever a body holds (a prefix, a long run of one byte,
// a suffix: nesting, long strings, huge numbers, whitespace), no JSON list
// decoder allocates more than its window: the heap a list costs is
// proportional to the element it holds, not to the body.
func FuzzListWindow(f *testing.F) {
	f.Add([]byte(`{"a": `), byte('['), uint16(256), []byte(``))
	f.Add([]byte(`{"servers":[`), byte('['), uint16(256), []byte(`]]`))
	f.Add([]byte(`{"data":{"servers":[{"addr":{"host":"`), byte('a'), uint16(256), []byte(`"}}]}}`))
	f.Add([]byte(`{"response":{"servers":[{"players":`), byte('9'), uint16(256), []byte(`}]}}`))
	f.Add([]byte(`[`), byte(' '), uint16(256), []byte(`{"ip":"192.0.2.1","port":1}]`))
	f.Add([]byte(`{"list":[{"address":"192.0.2.1","port":1,"name":"`), byte('\\'), uint16(256), []byte(`"}]}`))
	f.Add([]byte(`{"object":"list","data":[{"attributes":{"name":"`), byte('a'), uint16(256), []byte(`"}}],"meta":{}}`))
	f.Add([]byte(`{"object":"list","meta":{"pagination":{"links":{"next":"`), byte('a'), uint16(256), []byte(`"}}}}`))
	decoders := listDecoders(f)
	shrinkWindow(f, 8<<10)
	f.Fuzz(func(t *testing.T, prefix []byte, fill byte, kib uint16, suffix []byte) {
		n := int(kib) << 10
		for name, decode := range decoders {
			alloc := allocated(func() {
				decode(&body{prefix: string(prefix), suffix: string(suffix), fill: fill, n: n}, newCollector(3))
			})
			if alloc > windowBound()+uint64(4*(len(prefix)+len(suffix))) {
				t.Fatalf("%s: %d KiB allocated for a %d KiB body", name, alloc>>10, (n+len(prefix)+len(suffix))>>10)
			}
		}
	})
}
